import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:net';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';

/**
 * Real `emolens` processes (`serve`, `worker`, …) started as an operator starts them, for the tests and
 * benchmarks of several processes on one installation.
 */
export const MAIN = resolve(import.meta.dirname, '../main.ts');

/**
 * The environment of an installation's processes in the tests and benchmarks: production mode, its own data
 * directory and no web app, one engine process per job-running process, a killed worker's jobs looked for every
 * 2 s (taken over at most 10 + 2 + 2 s after the kill, decision 012), no demo account; PostgreSQL when `databaseUrl`
 * is given. `overrides` last.
 */
export function installationEnv(
  dataDir: string,
  databaseUrl: string | undefined,
  overrides: Record<string, string> = {},
): Record<string, string> {
  return {
    NODE_ENV: 'production',
    DATA_DIR: dataDir,
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    // Every process of one installation signs with the same secret.
    APP_SECRET: randomBytes(32).toString('hex'),
    LOG_LEVEL: 'info',
    SEED_DEMO: 'false',
    WEB_DIST: join(dataDir, 'no-web'),
    HOST: '127.0.0.1',
    ENGINE_WORKERS: '1',
    JOB_SUPERVISE_SECONDS: '2',
    ...overrides,
  };
}

/** Every per-minute rate limit lifted: a load of many respondents from one address measures the work, not the limits. */
const UNLIMITED = '100000000';
export const NO_RATE_LIMITS: Record<string, string> = {
  RATE_LIMIT_PER_MINUTE: UNLIMITED,
  ADDRESS_RATE_LIMIT_PER_MINUTE: UNLIMITED,
  UPLOAD_RATE_LIMIT_PER_MINUTE: UNLIMITED,
  PUBLIC_RATE_LIMIT_PER_MINUTE: UNLIMITED,
  RESPONDENT_RATE_LIMIT_PER_MINUTE: UNLIMITED,
  RESPONDENT_ADDRESS_RATE_LIMIT_PER_MINUTE: UNLIMITED,
  LINK_SESSIONS_PER_MINUTE: UNLIMITED,
};

/** `emolens user create`, as an operator runs it, on the installation of `env`. */
export async function createUserWithCli(env: Record<string, string>, username: string, password: string) {
  await promisify(execFile)(
    process.execPath,
    ['--import', 'tsx', MAIN, 'user', 'create', '--username', username, '--password', password],
    { env: { ...process.env, ...env } },
  );
}

/** A process of the installation and the log lines it has printed so far. */
export interface EmolensProcess {
  name: string;
  child: ChildProcess;
  lines: string[];
}

export function startEmolens(name: string, args: string[], env: Record<string, string>): EmolensProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', MAIN, ...args], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: string[] = [];
  let rest = '';
  const take = (data: Buffer) => {
    const parts = (rest + data.toString()).split('\n');
    rest = parts.pop() ?? '';
    lines.push(...parts);
  };
  child.stdout?.on('data', take);
  child.stderr?.on('data', take);
  return { name, child, lines };
}

const running = (proc: EmolensProcess) => proc.child.exitCode === null && proc.child.signalCode === null;

/** Stops the process with the signal and resolves with its exit code (null when a signal ended it). */
export async function stopEmolens(proc: EmolensProcess, signal: NodeJS.Signals = 'SIGTERM'): Promise<number | null> {
  if (!running(proc)) return proc.child.exitCode;
  const exited = new Promise<number | null>((r) => proc.child.once('exit', (code) => r(code)));
  proc.child.kill(signal);
  return exited;
}

/** How many log lines of the process carry this message. */
export const logged = (proc: EmolensProcess, msg: string) =>
  proc.lines.filter((l) => l.includes(`"msg":"${msg}"`)).length;

export async function waitFor(
  what: string,
  check: () => boolean | Promise<boolean>,
  seconds: number,
  everyMs = 100,
): Promise<void> {
  const until = Date.now() + seconds * 1000;
  while (!(await check())) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

export function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const server = createServer();
    server.once('error', fail);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => done(port));
    });
  });
}

/** The process at `base` answers its health check. */
export async function healthy(base: string): Promise<boolean> {
  try {
    return (await fetch(`${base}/healthz`)).status === 200;
  } catch {
    return false;
  }
}

async function onServer(serverUrl: string, statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

/**
 * A new empty database `<prefix>_<random>` on the PostgreSQL server of `serverUrl`: its URL, and `drop` (which
 * closes whatever is still connected to it).
 */
export async function freshPostgres(
  serverUrl: string,
  prefix: string,
): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `${prefix}_${randomBytes(6).toString('hex')}`;
  await onServer(serverUrl, `create database ${name}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => onServer(serverUrl, `drop database if exists ${name} with (force)`) };
}
