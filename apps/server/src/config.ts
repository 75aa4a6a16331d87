import { existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';

/** Repository root: data and the built SPA are found relative to it, whatever the cwd is. */
export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');

const bool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  HOST: z.string().default('0.0.0.0'),
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  /** PostgreSQL connection string; without it the embedded PGlite database in DATA_DIR is used. */
  DATABASE_URL: z.string().url().optional(),
  DATA_DIR: z.string().default('data'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** Secret for derived tokens; generated once into DATA_DIR when not given. */
  APP_SECRET: z.string().min(32).optional(),
  SESSION_TTL_HOURS: z.coerce
    .number()
    .positive()
    .default(24 * 14),
  /** Set the Secure flag on cookies (behind HTTPS). */
  COOKIE_SECURE: bool.default(false),
  TRUST_PROXY: bool.default(false),
  BODY_LIMIT_BYTES: z.coerce.number().int().positive().default(1_048_576),
  /** Create the demo account on start when the database has no users. */
  SEED_DEMO: bool.default(true),
  /** Password of the seeded demo account; random (and printed once) when not given. */
  DEMO_PASSWORD: z.string().min(10).optional(),
  WEB_DIST: z.string().optional(),
  LOGIN_MAX_FAILURES: z.coerce.number().int().positive().default(5),
  LOGIN_WINDOW_MINUTES: z.coerce.number().int().positive().default(15),
  RATE_LIMIT_PER_MINUTE: z.coerce.number().int().positive().default(600),
  /** Login requests per minute per address (failures are also throttled per username). */
  LOGIN_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().positive().default(30),
  /** Finished uploads are kept here (local storage); default DATA_DIR/media. */
  MEDIA_DIR: z.string().optional(),
  /** Partial tus uploads; default DATA_DIR/uploads. */
  UPLOAD_DIR: z.string().optional(),
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
});

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
  bodyLimit: number;
  seedDemo: boolean;
  demoPassword: string | undefined;
  /** Directory of the built SPA, or undefined when it is not built. */
  webDist: string | undefined;
  loginMaxFailures: number;
  loginWindowMs: number;
  rateLimitPerMinute: number;
  loginRateLimitPerMinute: number;
  /** Where finished uploads are stored. */
  storage: StorageConfig;
  /** Directory of partial (resumable) uploads. */
  uploadDir: string;
  uploadExpiryMs: number;
};

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
    bodyLimit: e.BODY_LIMIT_BYTES,
    seedDemo: e.SEED_DEMO,
    demoPassword: e.DEMO_PASSWORD,
    webDist: existsSync(resolve(webDist, 'index.html')) ? webDist : undefined,
    loginMaxFailures: e.LOGIN_MAX_FAILURES,
    loginWindowMs: e.LOGIN_WINDOW_MINUTES * 60_000,
    rateLimitPerMinute: e.RATE_LIMIT_PER_MINUTE,
    loginRateLimitPerMinute: e.LOGIN_RATE_LIMIT_PER_MINUTE,
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
    uploadExpiryMs: e.UPLOAD_EXPIRY_HOURS * 3_600_000,
  };
}
