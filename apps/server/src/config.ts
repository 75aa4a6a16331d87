import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ROLES, type Role } from '@emolens/contracts';
import { z } from 'zod';

/** Repository root: data and the built SPA are found relative to it, whatever the cwd is. */
export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');

const bool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

/** The address people and respondents reach the server at: an http(s) origin, without path or query. */
const publicUrl = z.string().transform((value, ctx) => {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    ctx.addIssue({ code: 'custom', message: 'must be a URL such as https://emolens.example.org' });
    return z.NEVER;
  }
  const bare = url.pathname === '/' && !url.search && !url.hash && !url.username && !url.password;
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || !bare) {
    ctx.addIssue({ code: 'custom', message: 'must be an http(s) URL without path, query or credentials' });
    return z.NEVER;
  }
  // "https://x.org/" and "https://x.org" are the same base: links are built on the origin.
  return url.origin;
});

const perMinute = (fallback: number) => z.coerce.number().int().positive().default(fallback);

const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  HOST: z.string().default('0.0.0.0'),
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  /** PostgreSQL connection string; without it the embedded PGlite database in DATA_DIR is used. */
  DATABASE_URL: z.string().url().optional(),
  DATA_DIR: z.string().default('data'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** Secret for derived tokens; when not given, generated once and kept in the database (`app_settings`). */
  APP_SECRET: z.string().min(32).optional(),
  SESSION_TTL_HOURS: z.coerce
    .number()
    .positive()
    .default(24 * 14),
  /** Set the Secure flag on cookies (behind HTTPS). */
  COOKIE_SECURE: bool.default(false),
  TRUST_PROXY: bool.default(false),
  /** Base of the links handed out (quota links); default http://localhost:PORT. */
  PUBLIC_URL: publicUrl.optional(),
  BODY_LIMIT_BYTES: z.coerce.number().int().positive().default(1_048_576),
  /** Create the demo account on start when the database has no users. */
  SEED_DEMO: bool.default(true),
  /** Password of the seeded demo account; random (and printed once) when not given. */
  DEMO_PASSWORD: z.string().min(10).optional(),
  /**
   * With the demo account, seed its demo project (decision 017): real recordings through the real engine, in the
   * background. Off: the account alone (browser tests that expect an empty cabinet).
   */
  SEED_DEMO_DATA: bool.default(true),
  WEB_DIST: z.string().optional(),
  /** Failed logins of one username from one address before delays start (decision 007). */
  LOGIN_FREE_FAILURES: z.coerce.number().int().positive().default(5),
  /** Failed logins from one address, whatever the usernames, before delays start. */
  LOGIN_ADDRESS_FREE_FAILURES: z.coerce.number().int().positive().default(20),
  /** The first delay; it doubles with every further failure up to LOGIN_MAX_DELAY_MINUTES. */
  LOGIN_DELAY_SECONDS: z.coerce.number().positive().default(1),
  LOGIN_MAX_DELAY_MINUTES: z.coerce.number().positive().default(15),
  /** How long a failed login is remembered. */
  LOGIN_WINDOW_MINUTES: z.coerce.number().int().positive().default(60),
  /** /api requests per minute per session (per address without one). */
  RATE_LIMIT_PER_MINUTE: perMinute(600),
  /** /api and upload requests per minute per address, whatever the sessions (a NAT'd office shares it). */
  ADDRESS_RATE_LIMIT_PER_MINUTE: perMinute(3000),
  /** Upload requests (/mediaserver) per minute per session; a video is sent in 50 MB chunks. */
  UPLOAD_RATE_LIMIT_PER_MINUTE: perMinute(600),
  /** Web app files, engine assets, /healthz and unknown paths: requests per minute per address. */
  PUBLIC_RATE_LIMIT_PER_MINUTE: perMinute(1200),
  /** Login requests per minute per address. */
  LOGIN_RATE_LIMIT_PER_MINUTE: perMinute(30),
  /**
   * Respondent API (/r/) requests per minute per respondent session (per address without one). A
   * respondent sends a 2-second recording chunk (30 a minute) and a few event batches; retries after
   * a flaky connection double that at worst.
   */
  RESPONDENT_RATE_LIMIT_PER_MINUTE: perMinute(300),
  /** Respondent API requests per minute per address: many respondents behind one NAT (a panel office). */
  RESPONDENT_ADDRESS_RATE_LIMIT_PER_MINUTE: perMinute(20_000),
  /** Sessions started per minute on one quota link, whatever the address (a link posted on a forum). */
  LINK_SESSIONS_PER_MINUTE: perMinute(600),
  /** Setup checks (/dot-test) started per hour per address: each stores a recording for 7 days. */
  DOT_TEST_STARTS_PER_HOUR: z.coerce.number().int().positive().default(30),
  /** Requests for access (the public form) per hour per address. */
  ACCESS_REQUESTS_PER_HOUR: z.coerce.number().int().positive().default(5),
  /**
   * How often a worker looks for jobs whose worker stopped beating (killed mid-job) or ran out of time,
   * to retry them. Seconds.
   */
  JOB_SUPERVISE_SECONDS: z.coerce.number().int().min(1).max(3600).default(10),
  /** Engine processes analysing recordings at once in a process that runs jobs (default: the CPU cores). */
  ENGINE_WORKERS: z.coerce.number().int().min(1).max(64).optional(),
  /** Origins MTurk may send respondents back to (turkSubmitTo), comma-separated. */
  MTURK_SUBMIT_ORIGINS: z
    .string()
    .default('https://www.mturk.com,https://workersandbox.mturk.com')
    .transform((value, ctx) => {
      const origins: string[] = [];
      for (const item of value
        .split(',')
        .map((o) => o.trim())
        .filter(Boolean)) {
        try {
          origins.push(new URL(item).origin);
        } catch {
          ctx.addIssue({ code: 'custom', message: `not a URL: ${item}` });
          return z.NEVER;
        }
      }
      return origins;
    }),
  /**
   * Key that encrypts the linked Toloka and Amazon tokens (AES-256-GCM): 32 bytes, base64. Without it a key is
   * derived from APP_SECRET (or the generated secret kept in the database).
   */
  RECRUITING_TOKENS_KEY: z
    .string()
    .optional()
    .transform((value, ctx) => {
      if (value === undefined || value.trim() === '') return undefined;
      const text = value.trim();
      const key = Buffer.from(text, 'base64');
      if (!/^[A-Za-z0-9+/]+={0,2}$/.test(text) || key.length !== 32) {
        ctx.addIssue({ code: 'custom', message: 'must be 32 bytes in base64 (openssl rand -base64 32)' });
        return z.NEVER;
      }
      return key;
    }),
  /** Toloka's API hosts (tests point them at a local server); default the production and sandbox hosts. */
  TOLOKA_BASE_URL: z.string().url().optional(),
  TOLOKA_SANDBOX_BASE_URL: z.string().url().optional(),
  /** MTurk's requester endpoint for both marketplaces (tests point it at a local server); default AWS's. */
  MTURK_ENDPOINT: z.string().url().optional(),
  /** Prolific's API host (tests point it at a local server); default https://api.prolific.com. */
  PROLIFIC_BASE_URL: z.string().url().optional(),
  /** Finished uploads are kept here (local storage); default DATA_DIR/media. */
  MEDIA_DIR: z.string().optional(),
  /** Partial tus uploads; default DATA_DIR/uploads. */
  UPLOAD_DIR: z.string().optional(),
  /**
   * Work files of running jobs (a recording being analysed, a file fetched from S3); default DATA_DIR/work. Each
   * process works in a directory of its own there; a starting one removes those of processes that are gone.
   */
  WORK_DIR: z.string().optional(),
  /** Unfinished uploads older than this are removed by the scheduled clean-up. */
  UPLOAD_EXPIRY_HOURS: z.coerce.number().positive().default(24),
  /** S3-compatible storage instead of the local directory: set the bucket and the keys. */
  S3_ENDPOINT: z.string().url().optional(),
  S3_BUCKET: z.string().min(3).optional(),
  S3_ACCESS_KEY_ID: z.string().min(1).optional(),
  S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
  S3_REGION: z.string().min(1).default('us-east-1'),
  /** Path-style addressing (MinIO and most S3-compatible servers). */
  S3_FORCE_PATH_STYLE: bool.default(true),
  /** Webhooks (decision 066): may they go to private, loopback, link-local or other internal addresses? */
  WEBHOOKS_ALLOW_PRIVATE_ADDRESSES: bool.default(false),
  /** May an endpoint's URL be plain http (default: https only)? */
  WEBHOOKS_ALLOW_HTTP: bool.default(false),
  /** How long one delivery waits for the endpoint's answer. */
  WEBHOOKS_TIMEOUT_SECONDS: z.coerce.number().positive().max(60).default(15),
  /** Seconds before each retry of a failed delivery (the Standard Webhooks schedule). */
  WEBHOOKS_RETRY_SCHEDULE: z
    .string()
    .default('5,300,1800,7200,18000,36000,36000')
    .transform((value, ctx) => {
      const delays = value.split(',').map((d) => Number(d.trim()));
      if (!delays.length || delays.some((d) => !Number.isFinite(d) || d < 0)) {
        ctx.addIssue({ code: 'custom', message: 'must be seconds separated by commas, such as 5,300,1800' });
        return z.NEVER;
      }
      return delays;
    }),
  /** An endpoint whose every delivery failed for this long is disabled. */
  WEBHOOKS_DISABLE_AFTER_HOURS: z.coerce.number().positive().default(120),
  /** Delivered and given-up webhook messages, with their attempts, are deleted this many days after they were made. */
  WEBHOOKS_LOG_RETENTION_DAYS: z.coerce.number().int().min(1).max(3650).default(30),
  /**
   * Single sign-on through an OpenID Connect provider (decision 067): its issuer URL (discovery document at
   * `<issuer>/.well-known/openid-configuration`), the client registered there for this installation, with the
   * redirect URI `PUBLIC_URL/api/auth/sso/callback/`. All three or none; none: no SSO.
   */
  OIDC_ISSUER: z.string().optional(),
  OIDC_CLIENT_ID: z.string().optional(),
  OIDC_CLIENT_SECRET: z.string().optional(),
  /** E-mail domains that may sign in through the provider, comma-separated; empty: whichever it vouches for. */
  OIDC_ALLOWED_DOMAINS: z.string().default(''),
  /** Create an account on first sign-in (needs OIDC_ALLOWED_DOMAINS); otherwise only existing accounts sign in. */
  OIDC_CREATE_USERS: bool.default(false),
  /** The role an account created on first sign-in gets. */
  OIDC_NEW_USER_ROLE: z.enum(ROLES).default('customer'),
  /** The button's text on the login page ("Sign in with Acme"); default a translated "Sign in with single sign-on". */
  OIDC_BUTTON_LABEL: z.string().trim().max(80).optional(),
});

/** The operator's OpenID Connect provider (decision 067). */
export interface SsoConfig {
  /** The issuer identifier, as the provider's discovery document must name it. */
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** Lower-case domains; empty: every domain. */
  allowedDomains: string[];
  createUsers: boolean;
  newUserRole: Role;
  /** null: the login page's own translated label. */
  buttonLabel: string | null;
}

const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);

/** SSO from the OIDC_* variables: undefined when none is set; the reasons it cannot be used otherwise. */
function ssoConfig(e: z.infer<typeof envSchema>): { sso: SsoConfig | undefined; issues: string[] } {
  const issuer = e.OIDC_ISSUER?.trim();
  const clientId = e.OIDC_CLIENT_ID?.trim();
  const clientSecret = e.OIDC_CLIENT_SECRET;
  if (!issuer && !clientId && !clientSecret) return { sso: undefined, issues: [] };
  const issues: string[] = [];
  if (!issuer || !clientId || !clientSecret) {
    issues.push('OIDC_ISSUER, OIDC_CLIENT_ID and OIDC_CLIENT_SECRET are all required for single sign-on');
  }
  if (issuer) {
    let url: URL | undefined;
    try {
      url = new URL(issuer);
    } catch {
      issues.push('OIDC_ISSUER: must be a URL such as https://login.example.com/realms/acme');
    }
    // Plain HTTP is for a provider on this machine only (the tests' provider): tokens never cross a network in clear.
    if (url && url.protocol !== 'https:' && !(url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname))) {
      issues.push('OIDC_ISSUER: must be an https URL (http only on localhost)');
    }
  }
  const allowedDomains = e.OIDC_ALLOWED_DOMAINS.split(',')
    .map((d) => d.trim().toLowerCase().replace(/^@/, ''))
    .filter(Boolean);
  for (const domain of allowedDomains) {
    if (!/^[a-z0-9-]+(\.[a-z0-9-]+)+$/.test(domain)) issues.push(`OIDC_ALLOWED_DOMAINS: not a domain: ${domain}`);
  }
  if (e.OIDC_CREATE_USERS && allowedDomains.length === 0) {
    issues.push('OIDC_CREATE_USERS needs OIDC_ALLOWED_DOMAINS: otherwise anyone the provider knows gets an account');
  }
  if (issues.length > 0 || !issuer || !clientId || !clientSecret) return { sso: undefined, issues };
  return {
    sso: {
      issuer,
      clientId,
      clientSecret,
      allowedDomains,
      createUsers: e.OIDC_CREATE_USERS,
      newUserRole: e.OIDC_NEW_USER_ROLE,
      buttonLabel: e.OIDC_BUTTON_LABEL || null,
    },
    issues: [],
  };
}

export type StorageConfig =
  | { kind: 'local'; dir: string }
  | {
      kind: 's3';
      endpoint: string | undefined;
      bucket: string;
      region: string;
      accessKeyId: string;
      secretAccessKey: string;
      forcePathStyle: boolean;
    };

export type Config = {
  env: 'development' | 'production' | 'test';
  host: string;
  port: number;
  databaseUrl: string | undefined;
  dataDir: string;
  logLevel: z.infer<typeof envSchema>['LOG_LEVEL'];
  appSecret: string | undefined;
  sessionTtlMs: number;
  cookieSecure: boolean;
  trustProxy: boolean;
  /** Origin links are built on (no trailing slash). */
  publicUrl: string;
  /** PUBLIC_URL was given: it then wins over forwarded headers. */
  publicUrlSet: boolean;
  bodyLimit: number;
  seedDemo: boolean;
  demoPassword: string | undefined;
  /** Seed the demo project along with the demo account. */
  seedDemoData: boolean;
  /** Directory of the built SPA, or undefined when it is not built. */
  webDist: string | undefined;
  loginFreeFailures: number;
  loginAddressFreeFailures: number;
  loginFirstDelayMs: number;
  loginMaxDelayMs: number;
  loginWindowMs: number;
  rateLimitPerMinute: number;
  addressRateLimitPerMinute: number;
  uploadRateLimitPerMinute: number;
  publicRateLimitPerMinute: number;
  loginRateLimitPerMinute: number;
  respondentRateLimitPerMinute: number;
  respondentAddressRateLimitPerMinute: number;
  linkSessionsPerMinute: number;
  dotTestStartsPerHour: number;
  accessRequestsPerHour: number;
  /** Origins (scheme://host[:port]) a respondent's turkSubmitTo may name. */
  mturkSubmitOrigins: string[];
  /** Encrypts linked Toloka and Amazon tokens (32 bytes); undefined: derived from the app secret. */
  recruitingTokensKey: Buffer | undefined;
  /** Overrides of Toloka's API hosts and MTurk's endpoint (undefined: the services' own). */
  tolokaBaseUrl: string | undefined;
  tolokaSandboxBaseUrl: string | undefined;
  mturkEndpoint: string | undefined;
  prolificBaseUrl: string | undefined;
  engineWorkers: number;
  jobSuperviseSeconds: number;
  /** Where finished uploads are stored. */
  storage: StorageConfig;
  /** Directory of partial (resumable) uploads. */
  uploadDir: string;
  /** Work files of running jobs, one directory per process (jobs/work-dir.ts). */
  workDir: string;
  uploadExpiryMs: number;
  webhooks: WebhooksConfig;
  /** Single sign-on; undefined: off. */
  sso: SsoConfig | undefined;
};

export interface WebhooksConfig {
  allowPrivateAddresses: boolean;
  allowHttp: boolean;
  timeoutMs: number;
  /** Before each retry, in order; its length is the number of retries. */
  retryDelaysMs: number[];
  disableAfterMs: number;
  /** How long a finished message (delivered or given up) and its attempts stay in the delivery log. */
  logRetentionMs: number;
}

export class ConfigError extends Error {}

/** The only place that reads process.env. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`Invalid environment:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  const s3Keys = [e.S3_ENDPOINT, e.S3_BUCKET, e.S3_ACCESS_KEY_ID, e.S3_SECRET_ACCESS_KEY];
  if (s3Keys.some(Boolean) && !(e.S3_BUCKET && e.S3_ACCESS_KEY_ID && e.S3_SECRET_ACCESS_KEY)) {
    throw new ConfigError(
      'Invalid environment:\n  S3_BUCKET, S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY are all required for S3 storage',
    );
  }
  const sso = ssoConfig(e);
  if (sso.issues.length > 0) {
    throw new ConfigError(`Invalid environment:\n${sso.issues.map((i) => `  ${i}`).join('\n')}`);
  }
  const dataDir = resolve(REPO_ROOT, e.DATA_DIR);
  const webDist = resolve(REPO_ROOT, e.WEB_DIST ?? 'apps/web/dist');
  return {
    env: e.NODE_ENV,
    host: e.HOST,
    port: e.PORT,
    databaseUrl: e.DATABASE_URL,
    dataDir,
    logLevel: e.LOG_LEVEL,
    appSecret: e.APP_SECRET,
    sessionTtlMs: e.SESSION_TTL_HOURS * 3_600_000,
    cookieSecure: e.COOKIE_SECURE,
    trustProxy: e.TRUST_PROXY,
    publicUrl: e.PUBLIC_URL ?? `http://localhost:${e.PORT}`,
    publicUrlSet: e.PUBLIC_URL !== undefined,
    bodyLimit: e.BODY_LIMIT_BYTES,
    seedDemo: e.SEED_DEMO,
    demoPassword: e.DEMO_PASSWORD,
    seedDemoData: e.SEED_DEMO_DATA,
    webDist: existsSync(resolve(webDist, 'index.html')) ? webDist : undefined,
    loginFreeFailures: e.LOGIN_FREE_FAILURES,
    loginAddressFreeFailures: e.LOGIN_ADDRESS_FREE_FAILURES,
    loginFirstDelayMs: e.LOGIN_DELAY_SECONDS * 1000,
    loginMaxDelayMs: e.LOGIN_MAX_DELAY_MINUTES * 60_000,
    loginWindowMs: e.LOGIN_WINDOW_MINUTES * 60_000,
    rateLimitPerMinute: e.RATE_LIMIT_PER_MINUTE,
    addressRateLimitPerMinute: e.ADDRESS_RATE_LIMIT_PER_MINUTE,
    uploadRateLimitPerMinute: e.UPLOAD_RATE_LIMIT_PER_MINUTE,
    publicRateLimitPerMinute: e.PUBLIC_RATE_LIMIT_PER_MINUTE,
    loginRateLimitPerMinute: e.LOGIN_RATE_LIMIT_PER_MINUTE,
    respondentRateLimitPerMinute: e.RESPONDENT_RATE_LIMIT_PER_MINUTE,
    respondentAddressRateLimitPerMinute: e.RESPONDENT_ADDRESS_RATE_LIMIT_PER_MINUTE,
    linkSessionsPerMinute: e.LINK_SESSIONS_PER_MINUTE,
    dotTestStartsPerHour: e.DOT_TEST_STARTS_PER_HOUR,
    accessRequestsPerHour: e.ACCESS_REQUESTS_PER_HOUR,
    mturkSubmitOrigins: e.MTURK_SUBMIT_ORIGINS,
    recruitingTokensKey: e.RECRUITING_TOKENS_KEY,
    tolokaBaseUrl: e.TOLOKA_BASE_URL,
    tolokaSandboxBaseUrl: e.TOLOKA_SANDBOX_BASE_URL,
    mturkEndpoint: e.MTURK_ENDPOINT,
    prolificBaseUrl: e.PROLIFIC_BASE_URL,
    engineWorkers: e.ENGINE_WORKERS ?? availableParallelism(),
    jobSuperviseSeconds: e.JOB_SUPERVISE_SECONDS,
    storage:
      e.S3_BUCKET && e.S3_ACCESS_KEY_ID && e.S3_SECRET_ACCESS_KEY
        ? {
            kind: 's3',
            endpoint: e.S3_ENDPOINT,
            bucket: e.S3_BUCKET,
            region: e.S3_REGION,
            accessKeyId: e.S3_ACCESS_KEY_ID,
            secretAccessKey: e.S3_SECRET_ACCESS_KEY,
            forcePathStyle: e.S3_FORCE_PATH_STYLE,
          }
        : { kind: 'local', dir: resolve(dataDir, e.MEDIA_DIR ?? 'media') },
    uploadDir: resolve(dataDir, e.UPLOAD_DIR ?? 'uploads'),
    workDir: resolve(dataDir, e.WORK_DIR ?? 'work'),
    uploadExpiryMs: e.UPLOAD_EXPIRY_HOURS * 3_600_000,
    webhooks: {
      allowPrivateAddresses: e.WEBHOOKS_ALLOW_PRIVATE_ADDRESSES,
      allowHttp: e.WEBHOOKS_ALLOW_HTTP,
      timeoutMs: e.WEBHOOKS_TIMEOUT_SECONDS * 1000,
      retryDelaysMs: e.WEBHOOKS_RETRY_SCHEDULE.map((s) => s * 1000),
      disableAfterMs: e.WEBHOOKS_DISABLE_AFTER_HOURS * 3_600_000,
      logRetentionMs: e.WEBHOOKS_LOG_RETENTION_DAYS * 86_400_000,
    },
    sso: sso.sso,
  };
}
