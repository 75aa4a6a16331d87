import pg from 'pg';
import { copyOut, readBinaryCopy } from '../../../db/binary-copy.ts';

/**
 * Where the build's thread reads the sessions' report digests (decision 026): the digests' query
 * (`ReportsRepository.digestsQuery`) as a binary COPY, so each digest comes as its raw bytes — on PostgreSQL over the
 * thread's own connection, so that neither the query's answer nor its decoding touches the API's event loop; on the
 * embedded PGlite, which lives in the API's thread, the job runs the COPY and hands its bytes over (transferred, not
 * copied).
 */
export type DigestSource = { copy: Uint8Array } | { connectionString: string; query: string };

/** The thread's connection, kept between builds (a kept thread builds again within seconds). */
let kept: { url: string; client: Promise<pg.Client> } | null = null;

function connection(url: string): Promise<pg.Client> {
  if (kept?.url === url) return kept.client;
  const previous = kept;
  const client = new pg.Client({ connectionString: url });
  const entry = {
    url,
    client: client.connect().then(() => client),
  };
  kept = entry;
  // A connection the server drops while idle is forgotten; the next build opens another.
  client.on('error', () => {
    if (kept === entry) kept = null;
  });
  entry.client.catch(() => {
    if (kept === entry) kept = null;
  });
  void previous?.client.then((c) => c.end()).catch(() => {});
  return entry.client;
}

function forget() {
  const stale = kept;
  kept = null;
  void stale?.client.then((c) => c.end()).catch(() => {});
}

async function copyBytes(source: DigestSource): Promise<Uint8Array> {
  if ('copy' in source) return source.copy;
  // A kept connection may have been closed by the server since (idle, restarted, its database dropped): one more try
  // on a fresh one.
  const reused = kept?.url === source.connectionString;
  try {
    return await copyOut(await connection(source.connectionString), source.query);
  } catch (err) {
    forget();
    if (!reused) throw err;
    try {
      return await copyOut(await connection(source.connectionString), source.query);
    } catch (again) {
      forget();
      throw again;
    }
  }
}

const utf8 = new TextDecoder();

/** The digests' bytes by result id (views into the COPY's bytes, which are the thread's own). */
export async function readStoredDigests(source: DigestSource): Promise<Map<string, Uint8Array>> {
  const digests = new Map<string, Uint8Array>();
  for (const [id, digest] of readBinaryCopy(await copyBytes(source))) {
    if (id && digest) digests.set(utf8.decode(id), digest);
  }
  return digests;
}
