// Which test files run in which of CI's two Vitest passes (decision 029). Nothing runs in neither:
// - the embedded-database pass (PGlite) runs every test file but the `*.pg.test.ts` ones;
// - the PostgreSQL pass (TEST_PASS=postgres) runs the `*.pg.test.ts` files and the files that open a database
//   (an app, a test database), since the repositories', services' and routes' SQL is what differs between the two,
//   except EMBEDDED_ONLY below: slow files that touch the database only on their way to something else (the engine
//   on video, LibreOffice, an S3 server), whose SQL the other files run on PostgreSQL too. They run once, in the
//   first pass. A path here that no longer exists fails the listing: a moved file is named again where it went.
// `node scripts/test-passes.mjs postgres` lists the PostgreSQL pass's files.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '..');
export const EMBEDDED_ONLY = [
  // The real engine on recordings (its child processes), then the results' rows.
  'apps/server/src/modules/processing/processing-flow.test.ts',
  // Privacy mode end to end: a fell-back session's video through the engine, and an S3 server (s3rver).
  'apps/server/src/modules/processing/privacy-mode-flow.test.ts',
  'apps/server/src/modules/dot-test/dot-test-analysis.test.ts',
  'apps/server/src/modules/interview-analysis/interview-analysis.test.ts',
  // A phantom through the respondent API and the worker's engine; its truth's SQL runs in phantom-truths.test.ts.
  'apps/server/src/modules/phantom-truths/phantom-truths-flow.test.ts',
  // The demo project seeded and processed end to end in real time.
  'apps/server/src/modules/demo-data/demo-data.test.ts',
  // LibreOffice and poppler on the presentation, ffmpeg on the video export.
  'apps/server/src/modules/reports/report-files.test.ts',
  // An S3 server (s3rver) and byte ranges of stored files.
  'apps/server/src/modules/media/s3-storage-flow.test.ts',
  'apps/server/src/modules/media/serving.test.ts',
];
// A file opens a database when it calls one of the helpers that do, or imports the modules that hold them, itself or
// through a module of its own folder (a test's `*.fixture.ts` that sets up the app).
const OPENS_DATABASE =
  /\b(appPerFile|createTestApp|createTestAppWithFiles|openTestDatabase|openDatabase)\(|test\/(harness|per-file)\.ts'|db\/client\.ts'/;
const LOCAL_IMPORT = /from '\.\/([^']+\.ts)'/g;
const TEST_FILE = /\.test\.ts$/;

function opensDatabase(file) {
  const text = readFileSync(join(ROOT, file), 'utf8');
  if (OPENS_DATABASE.test(text)) return true;
  return [...text.matchAll(LOCAL_IMPORT)].some(([, local]) => {
    const path = join(ROOT, dirname(file), local);
    return existsSync(path) && OPENS_DATABASE.test(readFileSync(path, 'utf8'));
  });
}

/** Every test file of the workspaces Vitest reads (apps/* and packages/*), relative to the root. */
export function testFiles() {
  const files = [];
  for (const group of ['apps', 'packages']) {
    for (const workspace of readdirSync(join(ROOT, group))) {
      const src = join(ROOT, group, workspace, 'src');
      let entries;
      try {
        entries = readdirSync(src, { recursive: true, withFileTypes: true });
      } catch {
        continue;
      }
      for (const e of entries) {
        if (e.isFile() && TEST_FILE.test(e.name)) files.push(relative(ROOT, join(e.parentPath, e.name)));
      }
    }
  }
  return files.sort();
}

export const postgresOnly = (file) => file.endsWith('.pg.test.ts');

/** The files of the PostgreSQL pass. */
export function postgresPassFiles() {
  const files = testFiles();
  const gone = EMBEDDED_ONLY.filter((file) => !files.includes(file));
  if (gone.length) throw new Error(`scripts/test-passes.mjs names test files that are not there: ${gone.join(', ')}`);
  return files.filter((file) => {
    if (postgresOnly(file)) return true;
    return !EMBEDDED_ONLY.includes(file) && opensDatabase(file);
  });
}

if (process.argv[1] === import.meta.filename) {
  const pass = process.argv[2];
  const files = pass === 'postgres' ? postgresPassFiles() : testFiles().filter((f) => !postgresOnly(f));
  console.log(files.join('\n'));
}
