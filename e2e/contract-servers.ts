/**
 * The outside services the e2e app talks to, as the contract servers the server's own tests use: Toloka's REST API
 * on TOLOKA_PORT (the app's TOLOKA_BASE_URL and TOLOKA_SANDBOX_BASE_URL), accepting TOLOKA_TOKEN with a balance
 * of TOLOKA_BALANCE, and a small control listener on CONTROL_PORT that Playwright polls for readiness (`/healthz`)
 * and the tests read Toloka's side from (`/toloka/state`: balance, pools, tasks); Prolific's API on PROLIFIC_PORT (the
 * app's PROLIFIC_BASE_URL) accepting PROLIFIC_TOKEN, whose side the tests read (`/prolific/state`) and whose
 * participants they play (`POST /prolific/participants`: one takes a place and gets the study's URL;
 * `POST /prolific/submissions`: one submits, with a code or none). playwright.config.ts starts it as
 * a web server with those variables (ports derived from E2E_PORT); it runs until it is killed:
 *
 *     node --import tsx e2e/contract-servers.ts
 */
import { createServer } from 'node:http';
import { startProlificContractServer } from '../apps/server/src/test/contract-servers/prolific/server.ts';
import { startTolokaContractServer } from '../apps/server/src/test/contract-servers/toloka/server.ts';
import { startTestProvider } from '../apps/server/src/test/oidc-provider/provider.ts';

/** A setting from the environment (playwright.config.ts passes them all); the defaults suit E2E_PORT 8097. */
const setting = (name: string, fallback: string) => process.env[name] || fallback;
const TOLOKA_PORT = Number(setting('TOLOKA_PORT', '9097'));
const CONTROL_PORT = Number(setting('CONTROL_PORT', '10097'));
const OIDC_PORT = Number(setting('OIDC_PORT', '12097'));

const toloka = await startTolokaContractServer({
  port: TOLOKA_PORT,
  tokens: [setting('TOLOKA_TOKEN', 'AQAAAAAe2eTolokaToken-0001')],
  balance: Number(setting('TOLOKA_BALANCE', '1000')),
});

const prolific = await startProlificContractServer({
  port: Number(setting('PROLIFIC_PORT', '11097')),
  tokens: [setting('PROLIFIC_TOKEN', 'e2e-prolific-api-token-0001')],
});

/** The JSON body of a control request. */
async function bodyOf(req: import('node:http').IncomingMessage): Promise<Record<string, string>> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as Record<string, string>;
}

async function prolificControl(path: string, req: import('node:http').IncomingMessage) {
  const { state } = prolific;
  if (path === '/prolific/state') {
    return {
      studies: [...state.studies.values()],
      submissions: [...state.submissions.values()],
    };
  }
  const body = await bodyOf(req);
  if (path === '/prolific/participants') {
    const { submission, url } = state.startSubmission(body.study_id ?? '', body.participant_id);
    return { submission_id: submission.id, url };
  }
  if (path === '/prolific/submissions') return state.complete(body.submission_id ?? '', body.code ?? '');
  return null;
}

// The company's OpenID provider for single sign-on (decision 067): its login form takes any password, and a login that
// is an e-mail address signs in with that address verified, except in the `unverified.test` domain.
const oidc = await startTestProvider({
  port: OIDC_PORT,
  clientId: setting('OIDC_CLIENT_ID', 'emolens-e2e'),
  clientSecret: setting('OIDC_CLIENT_SECRET', 'e2e-oidc-client-secret'),
  redirectUris: [setting('OIDC_REDIRECT_URI', 'http://127.0.0.1:8097/api/auth/sso/callback/')],
  accountFor: (id) =>
    /^[\w.+-]+@[\w-]+(\.[\w-]+)+$/.test(id)
      ? { email: id, email_verified: !id.endsWith('@unverified.test'), given_name: 'Pat', family_name: 'Doe' }
      : undefined,
});

const control = createServer(async (req, res) => {
  const path = new URL(req.url ?? '/', 'http://control.local').pathname;
  const json = (status: number, body: unknown) => {
    res.writeHead(status, { 'Content-Type': 'application/json' });
    res.end(JSON.stringify(body));
  };
  if (path === '/healthz') return json(200, { ok: true, toloka: toloka.url, oidc: oidc.issuer });
  if (path === '/toloka/state') {
    const { state } = toloka;
    return json(200, {
      balance: state.balance,
      pools: [...state.pools.values()].map((p) => ({
        id: p.id,
        status: p.status,
        last_close_reason: p.last_close_reason ?? null,
        reward_per_assignment: p.reward_per_assignment,
      })),
      tasks: [...state.tasks.values()].map((t) => ({ pool_id: t.pool_id, input_values: t.input_values })),
    });
  }
  if (path.startsWith('/prolific/')) {
    try {
      const answer = await prolificControl(path, req);
      return answer ? json(200, answer) : json(404, { error: 'not found' });
    } catch (error) {
      return json(409, { error: String(error) });
    }
  }
  return json(404, { error: 'not found' });
});
await new Promise<void>((resolve, reject) => {
  control.once('error', reject);
  control.listen(CONTROL_PORT, '127.0.0.1', () => resolve());
});

const stop = () => {
  control.close();
  Promise.allSettled([toloka.close(), prolific.close(), oidc.close()]).finally(() => process.exit(0));
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
