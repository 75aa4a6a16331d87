import { beforeEach } from 'vitest';
import { type Client, loggedIn } from '../../test/harness.ts';
import { appWithFilesPerFile } from '../../test/per-file.ts';
import { respondentSessionRow } from '../../test/respondent-rows.ts';

/**
 * The setup of the respondent API's test files (journey, recording, starting), called at a file's top level: one app
 * for the file with its stored files in `t.dir`, and before each test Alice logged in, handed to `keepAlice` for the
 * file's own `alice`. `db()` is the app's database now, `sessionRow(id)` a respondent session's row.
 */
export function respondentApiPerFile(keepAlice: (alice: Client) => void) {
  const t = appWithFilesPerFile('respondent-test');
  beforeEach(async () => {
    keepAlice((await loggedIn(t.app, 'alice')).alice);
  });
  return {
    t,
    db: () => t.app.ctx.database.db,
    sessionRow: (id: string) => respondentSessionRow(t.app, id),
  };
}
