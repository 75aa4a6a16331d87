// bench:scale-out's installation (see scale-out.ts): two `emolens serve` processes on a fresh PostgreSQL database
// and an S3 server in a child process, an analyst, launched projects; and what is cleaned up whatever happens.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { LightMyRequestResponse } from 'fastify';
import pg from 'pg';
import { Client, TEST_PASSWORD } from '../apps/server/src/test/harness.ts';
import {
  createUserWithCli,
  type EmolensProcess,
  freePort,
  freshPostgres,
  healthy,
  installationEnv,
  NO_RATE_LIMITS,
  startEmolens,
  stopEmolens,
  waitFor,
} from '../apps/server/src/test/installation.ts';
import { overHttp } from '../apps/server/src/test/over-http.ts';
import { launchedOverHttp } from '../apps/server/src/test/respondent.ts';

const DEFAULT_DATABASE_URL = 'postgres://postgres@127.0.0.1:5432/postgres';

// ---------------------------------------------------------------------------------------------
// What is cleaned up whatever happens: processes killed, the database dropped, directories removed.
// ---------------------------------------------------------------------------------------------
export const cleanups: (() => Promise<unknown>)[] = [];
export const processes: EmolensProcess[] = [];

export async function cleanUp(): Promise<void> {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => undefined);
}

function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.once('exit', () => resolve()));
}

/** Stops the process (SIGTERM, SIGKILL after `seconds`). */
export async function stop(child: ChildProcess, seconds = 30): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const done = exited(child);
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), seconds * 1000);
  await done;
  clearTimeout(timer);
}

/** An `emolens` process of the installation, killed at the end whatever happens. */
export function start(name: string, args: string[], vars: Record<string, string>): EmolensProcess {
  const proc = startEmolens(name, args, vars);
  processes.push(proc);
  cleanups.push(() => stopEmolens(proc, 'SIGKILL'));
  return proc;
}

export async function startS3Child(): Promise<{ child: ChildProcess; env: Record<string, string> }> {
  const child = spawn(process.execPath, ['--import', 'tsx', join(import.meta.dirname, 'scale-out.ts'), '--s3'], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  cleanups.push(() => stop(child, 10));
  const s3env = await new Promise<Record<string, string>>((resolve, reject) => {
    let out = '';
    child.stdout?.on('data', (data: Buffer) => {
      out += data.toString();
      const line = out.split('\n').find((l) => l.startsWith('{'));
      if (line) resolve(JSON.parse(line));
    });
    child.once('exit', (code) => reject(new Error(`the S3 server exited with ${code}`)));
  });
  return { child, env: s3env };
}

export async function freshDatabase(): Promise<string> {
  const server = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? DEFAULT_DATABASE_URL;
  const database = await freshPostgres(server, 'emolens_bench');
  cleanups.push(database.drop);
  return database.url;
}

// ---------------------------------------------------------------------------------------------
// The installation: two API processes on a fresh database and S3, a user, launched projects.
// ---------------------------------------------------------------------------------------------
export interface Installation {
  env: Record<string, string>;
  apis: EmolensProcess[];
  bases: string[];
  s3: ChildProcess;
  db: pg.Pool;
  analyst: Client;
}

export async function install(): Promise<Installation> {
  const s3 = await startS3Child();
  const databaseUrl = await freshDatabase();
  const dataDir = await mkdtemp(join(tmpdir(), 'emolens-bench-scale-'));
  cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
  // The workers' DATA_DIR. Each API has its own (below): unfinished uploads and recordings are in S3 (decision 069).
  const vars = installationEnv(dataDir, databaseUrl, {
    ...s3.env,
    // Measured is the work behind the requests, not the limits that stop a flood of them.
    ...NO_RATE_LIMITS,
    // The APIs log warnings only (as bench:respondent's server does); the workers log at info, whose lines are timed.
    LOG_LEVEL: 'warn',
  });
  const ports = [await freePort(), await freePort()];
  const bases = ports.map((port) => `http://127.0.0.1:${port}`);
  // Both APIs start at once on the empty database: one applies the migrations while the other waits.
  const apiDirs = await Promise.all(
    ports.map(async () => {
      const dir = await mkdtemp(join(tmpdir(), 'emolens-bench-api-'));
      cleanups.push(() => rm(dir, { recursive: true, force: true }));
      return dir;
    }),
  );
  const apis = ports.map((port, i) =>
    start(`api${i}`, ['serve'], { ...vars, PORT: String(port), DATA_DIR: apiDirs[i] as string }),
  );
  await waitFor('both APIs to answer', async () => (await Promise.all(bases.map(healthy))).every(Boolean), 120);
  await createUserWithCli(vars, 'bench', TEST_PASSWORD);
  const db = new pg.Pool({ connectionString: databaseUrl, max: 2 });
  cleanups.push(() => db.end());
  const analyst = new Client(overHttp(bases));
  const login = await analyst.login('bench');
  if (login.statusCode !== 200) throw new Error(`login: ${login.statusCode} ${login.body}`);
  return { env: vars, apis, bases, s3: s3.child, db, analyst };
}

/** A launched project of the analyst (one contentless research, a quota link with this quota): its link and research. */
export function launchedProject({ analyst, db }: Installation, quota?: number) {
  return launchedOverHttp(
    analyst,
    (id) => db.query(`update projects set status = 'active', launched_at = now() where id = $1`, [id]),
    quota,
  );
}

export function expectStatus(what: string, res: LightMyRequestResponse, status: number): void {
  if (res.statusCode !== status) throw new Error(`${what}: ${res.statusCode} ${res.body.slice(0, 200)}`);
}
