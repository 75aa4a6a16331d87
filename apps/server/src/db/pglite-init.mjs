// Makes a new embedded database in the data directory given, then exits (db/client.ts runs it in a child process:
// initdb's WebAssembly memory is never given back, and the server would keep it for its whole life).
import { PGlite } from '@electric-sql/pglite';

const dataDir = process.argv[2];
if (!dataDir) throw new Error('usage: pglite-init.mjs <data dir>');
const pglite = await PGlite.create(dataDir);
await pglite.close();
