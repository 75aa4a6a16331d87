import { resolve } from 'node:path';
import { defineConfig, devices } from '@playwright/test';

const PORT = Number(process.env.E2E_PORT ?? 8097);
export const BASE_URL = `http://127.0.0.1:${PORT}`;
export const DEMO_PASSWORD = 'e2e-demo-password';
/** A super user made before the app starts (the moderation of self-service tests, licence packages). */
export const STAFF = { username: 'e2e-staff', password: 'e2e-staff-password' };
const ROOT = resolve(import.meta.dirname, '..');
// One data directory per port: parallel runs on other ports do not share a database.
const DATA_DIR = resolve(ROOT, `.tmp/e2e-data-${PORT}`);
// A build made already (CI's build step: E2E_WEB_DIST=apps/web/dist) is served as it is; otherwise each port builds
// into its own folder, so parallel runs never serve each other's half-written build.
const PREBUILT_WEB = process.env.E2E_WEB_DIST;
const WEB_DIST = resolve(ROOT, PREBUILT_WEB ?? `.tmp/e2e-web-${PORT}`);
const BUILD_WEB = PREBUILT_WEB
  ? `test -f ${WEB_DIST}/index.html`
  : `npm --workspace @emolens/web run build -- --outDir ${WEB_DIST} --emptyOutDir`;
// The outside services' contract servers (contract-servers.ts), on ports derived from the app's: runs on other
// ports do not share them. Toloka's API accepts one token with a balance; the control port answers readiness and
// shows Toloka's side to the tests.
const TOLOKA_PORT = PORT + 1000;
const CONTROL_PORT = PORT + 2000;
export const TOLOKA_URL = `http://127.0.0.1:${TOLOKA_PORT}`;
export const CONTRACT_CONTROL_URL = `http://127.0.0.1:${CONTROL_PORT}`;
export const TOLOKA_TOKEN = 'AQAAAAAe2eTolokaToken-0001';
export const TOLOKA_BALANCE = 1000;
// Prolific's API (its contract server) accepts one token.
const PROLIFIC_PORT = PORT + 3000;
export const PROLIFIC_URL = `http://127.0.0.1:${PROLIFIC_PORT}`;
export const PROLIFIC_TOKEN = 'e2e-prolific-api-token-0001';
/** The company's OpenID provider (contract-servers.ts) the app signs people in through (decision 067). */
const OIDC_PORT = PORT + 4000;
export const OIDC_ISSUER = `http://127.0.0.1:${OIDC_PORT}`;
export const OIDC_BUTTON_LABEL = 'Sign in with Acme';
const OIDC_CLIENT = { id: 'emolens-e2e', secret: 'e2e-oidc-client-secret' };

/**
 * Two workers (decision 029): the spec files run two at a time, each worker as its own demo account, so that one
 * worker's projects and researches never show in the other's lists. E2E_WORKERS=1 runs them one after another.
 */
const WORKERS = Number(process.env.E2E_WORKERS ?? 2);
/** The demo account of worker `parallelIndex` (`demo` for the first, as the app names its own). */
export const demoUsername = (parallelIndex: number) => (parallelIndex === 0 ? 'demo' : `demo-${parallelIndex + 1}`);
/** An account no other spec uses, for a spec that starts from an empty cabinet (researches.spec.ts). */
export const EMPTY_ACCOUNT = { username: 'e2e-empty', password: DEMO_PASSWORD };

/**
 * The accounts, made before the app starts (it seeds its demo account only on an installation with no users): a demo
 * account per worker as the app makes its own, one with an empty cabinet, and the staff account.
 */
const cli = 'node --import tsx apps/server/src/main.ts user create';
const demo = `--password ${DEMO_PASSWORD} --role categorizer_admin --first-name Demo --last-name Analyst`;
const USERS = [
  ...Array.from({ length: WORKERS }, (_, i) => `${cli} --username ${demoUsername(i)} ${demo}`),
  `${cli} --username ${EMPTY_ACCOUNT.username} ${demo}`,
  `${cli} --username ${STAFF.username} --password ${STAFF.password} --role super_user`,
].join(' && ');

export default defineConfig({
  testDir: './tests',
  // Files are spread over the workers; the tests of one file run in order, in one worker.
  fullyParallel: false,
  workers: WORKERS,
  retries: 0,
  forbidOnly: !!process.env.CI,
  timeout: 30_000,
  expect: { timeout: 10_000 },
  reporter: [['list'], ['json', { outputFile: resolve(ROOT, '.tmp/e2e-results.json') }]],
  // Per port, like the data: runs on other ports do not wipe each other's results.
  outputDir: resolve(ROOT, `.tmp/test-results-${PORT}`),
  use: {
    baseURL: BASE_URL,
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    // Every context of a test (a second user's, a respondent's) asks for less motion, and the cabinet's dialogs open
    // without their 200 ms slide: on a loaded machine a click aimed at a dialog's button while it was still sliding
    // in hit the text above it (decision 089).
    reducedMotion: 'reduce',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
  projects: [{ name: 'chromium', use: { ...devices['Desktop Chrome'], channel: undefined } }],
  webServer: [
    {
      command: 'node --import tsx e2e/contract-servers.ts',
      cwd: ROOT,
      url: `${CONTRACT_CONTROL_URL}/healthz`,
      timeout: 30_000,
      reuseExistingServer: false,
      stdout: 'ignore',
      stderr: 'pipe',
      env: {
        TOLOKA_PORT: String(TOLOKA_PORT),
        CONTROL_PORT: String(CONTROL_PORT),
        TOLOKA_TOKEN,
        TOLOKA_BALANCE: String(TOLOKA_BALANCE),
        PROLIFIC_PORT: String(PROLIFIC_PORT),
        PROLIFIC_TOKEN,
        OIDC_PORT: String(OIDC_PORT),
        OIDC_CLIENT_ID: OIDC_CLIENT.id,
        OIDC_CLIENT_SECRET: OIDC_CLIENT.secret,
        OIDC_REDIRECT_URI: `${BASE_URL}/api/auth/sso/callback/`,
      },
    },
    {
      // The production build on the embedded database, exactly as `npm start` serves it.
      command: `rm -rf ${DATA_DIR} && ${BUILD_WEB} && ${USERS} && node --import tsx apps/server/src/main.ts serve --all`,
      cwd: ROOT,
      url: `${BASE_URL}/healthz`,
      timeout: 180_000,
      reuseExistingServer: false,
      stdout: 'ignore',
      stderr: 'pipe',
      env: {
        PORT: String(PORT),
        HOST: '127.0.0.1',
        // Quota links are built on the configured public address, which is where the tests browse.
        PUBLIC_URL: BASE_URL,
        DATA_DIR,
        WEB_DIST,
        DEMO_PASSWORD,
        // The demo account without its demo project (decision 017): the journeys expect an empty cabinet.
        SEED_DEMO_DATA: 'false',
        LOG_LEVEL: 'warn',
        NODE_ENV: 'production',
        // Both Toloka environments are the contract server.
        TOLOKA_BASE_URL: TOLOKA_URL,
        TOLOKA_SANDBOX_BASE_URL: TOLOKA_URL,
        // Webhooks go to the receiver the test runs on this machine (decision 066).
        WEBHOOKS_ALLOW_PRIVATE_ADDRESSES: 'true',
        WEBHOOKS_ALLOW_HTTP: 'true',
        PROLIFIC_BASE_URL: PROLIFIC_URL,
        // Single sign-on through the contract servers' provider: acme.test accounts, made on first sign-in.
        OIDC_ISSUER,
        OIDC_CLIENT_ID: OIDC_CLIENT.id,
        OIDC_CLIENT_SECRET: OIDC_CLIENT.secret,
        OIDC_ALLOWED_DOMAINS: 'acme.test',
        OIDC_CREATE_USERS: 'true',
        OIDC_NEW_USER_ROLE: 'customer',
        OIDC_BUTTON_LABEL,
      },
    },
  ],
});
