import { randomBytes, randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Readable, Writable } from 'node:stream';
import {
  CSRF_COOKIE,
  CSRF_HEADER,
  type FlowType,
  type MediaKind,
  type MediaStatus,
  type Role,
} from '@emolens/contracts';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { sql } from 'kysely';
import pino from 'pino';
import { buildApp } from '../app.ts';
import { type Config, loadConfig } from '../config.ts';
import { type Database, openDatabase } from '../db/client.ts';
import { migrateToLatest } from '../db/migrate.ts';
import { REDACT_PATHS } from '../logger.ts';
import { hashPassword } from '../modules/auth/password.ts';
import { newPublicUserId } from '../modules/users/users.service.ts';
import type { Injector } from './over-http.ts';
import { adminQuery, databaseUrl, POSTGRES_TEMPLATE_ENV, pgliteTemplateDump } from './template-database.ts';

/**
 * Integration tests run on a real database: PGlite in memory by default, or a fresh database
 * created on the PostgreSQL server of TEST_DATABASE_URL. An unreachable server fails the run.
 * Each is a copy of the run's migrated template (template-database.ts) when Vitest made one.
 */
const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL;

export const TEST_BACKEND = TEST_DATABASE_URL ? 'postgres' : 'pglite';

export type TestDatabase = Database & { dispose(): Promise<void> };

export async function openTestDatabase(): Promise<TestDatabase> {
  if (!TEST_DATABASE_URL) {
    const template = pgliteTemplateDump();
    const database = await openDatabase({
      kind: 'pglite',
      dataDir: undefined,
      ...(template ? { loadDataDir: await template } : {}),
    });
    if (!template) await migrateToLatest(database.db);
    return { ...database, dispose: () => database.close() };
  }
  const serverUrl = TEST_DATABASE_URL;
  const name = `emolens_test_${randomBytes(6).toString('hex')}`;
  const template = process.env[POSTGRES_TEMPLATE_ENV];
  await adminQuery(serverUrl, `create database ${name}${template ? ` template ${template}` : ''}`);
  const database = await openDatabase({ kind: 'postgres', url: databaseUrl(serverUrl, name) });
  if (!template) await migrateToLatest(database.db);
  return {
    ...database,
    dispose: async () => {
      await database.close();
      await adminQuery(serverUrl, `drop database if exists ${name} with (force)`);
    },
  };
}

export function testConfig(overrides: Partial<Config> = {}): Config {
  return {
    // Every test file sends many requests from one address within a minute: the request limits would
    // trip. Tests of the limits set low ones.
    ...loadConfig({
      NODE_ENV: 'test',
      LOG_LEVEL: 'silent',
      WEB_DIST: '.tmp/no-web-dist',
      LOGIN_RATE_LIMIT_PER_MINUTE: '100000',
      RATE_LIMIT_PER_MINUTE: '100000',
      ADDRESS_RATE_LIMIT_PER_MINUTE: '100000',
      UPLOAD_RATE_LIMIT_PER_MINUTE: '100000',
      PUBLIC_RATE_LIMIT_PER_MINUTE: '100000',
      RESPONDENT_RATE_LIMIT_PER_MINUTE: '100000',
      RESPONDENT_ADDRESS_RATE_LIMIT_PER_MINUTE: '100000',
      LINK_SESSIONS_PER_MINUTE: '100000',
      DOT_TEST_STARTS_PER_HOUR: '100000',
      ACCESS_REQUESTS_PER_HOUR: '100000',
    }),
    ...overrides,
  };
}

export interface TestApp {
  app: FastifyInstance;
  database: TestDatabase;
  /** Everything the app logged, as JSON lines. */
  logs: string[];
  /** Empties every table (one app per test file, a clean database per test). */
  reset(): Promise<void>;
  close(): Promise<void>;
}

export async function createTestApp(overrides: Partial<Config> = {}): Promise<TestApp> {
  const database = await openTestDatabase();
  const logs: string[] = [];
  const sink = new Writable({
    write(chunk, _enc, done) {
      logs.push(String(chunk));
      done();
    },
  });
  const logger = pino({ level: 'debug', redact: { paths: REDACT_PATHS, censor: '[redacted]' } }, sink);
  const app = await buildApp(testConfig(overrides), { database, logger });
  return {
    app,
    database,
    logs,
    reset: async () => {
      logs.length = 0;
      await sql`truncate respondent_sessions, users, auth_sessions, login_failures, projects, campaigns, scenarios, surveys, scenario_campaigns, project_accessor_links, media, storage_trash, dot_tests, rate_limit_counters, worker_heartbeats, upload_finishes cascade`.execute(
        database.db,
      );
    },
    close: async () => {
      await app.close();
      await database.dispose();
    },
  };
}

/** A test app whose files go to a temporary folder of its own (`dir`), removed when it closes. */
export async function createTestAppWithFiles(
  name: string,
  overrides: Partial<Config> = {},
): Promise<TestApp & { dir: string }> {
  const dir = await mkdtemp(join(tmpdir(), `emolens-${name}-`));
  const t = await createTestApp({ storage: { kind: 'local', dir }, ...overrides });
  return {
    ...t,
    dir,
    close: async () => {
      await t.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

export const TEST_PASSWORD = 'correct horse battery';

/**
 * TEST_PASSWORD hashed once per process at a low scrypt cost (N=2^10, ~2 ms against ~95 ms): a login reads the cost
 * from the stored hash, so a seeded user's logins run the product's code in a fraction of the time (decision 029).
 * Users made through the service or the API get the product's cost.
 */
let seededHash: Promise<string> | undefined;

/** A user row as the service makes it (valid name, a role, Russian interface), with TEST_PASSWORD. */
export async function seedUser(app: FastifyInstance, username = 'analyst', extra: { role?: Role } = {}) {
  seededHash ??= hashPassword(TEST_PASSWORD, { N: 2 ** 10, r: 8, p: 1 });
  return app.ctx.deps.users.insert({
    public_user_id: newPublicUserId(),
    username,
    password_hash: await seededHash,
    role: extra.role ?? 'customer',
    email: null,
    current_lang: 'ru',
  });
}

/** A cookie jar with the CSRF double-submit done the way the SPA does it. */
export class Client {
  readonly cookies = new Map<string, string>();

  constructor(
    private readonly app: Injector,
    /** The client's address as the server sees it (127.0.0.1 unless given). */
    private readonly options: { address?: string } = {},
  ) {}

  private remember(response: LightMyRequestResponse): void {
    for (const c of response.cookies) {
      if (c.value === '' || (c.expires && c.expires.getTime() < Date.now())) this.cookies.delete(c.name);
      else this.cookies.set(c.name, c.value);
    }
  }

  private cookieHeader(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }

  async request(
    method: 'GET' | 'HEAD' | 'POST' | 'PATCH' | 'PUT' | 'DELETE',
    url: string,
    options: {
      body?: unknown;
      /** A body sent as it is (text, bytes, or a stream of them), JSON unless the headers say otherwise. */
      rawBody?: string | Buffer | Readable;
      headers?: Record<string, string>;
      csrf?: boolean;
    } = {},
  ): Promise<LightMyRequestResponse> {
    const unsafe = method !== 'GET' && method !== 'HEAD';
    if (unsafe && options.csrf !== false && !this.cookies.has(CSRF_COOKIE)) {
      await this.request('GET', '/api/auth/csrf/');
    }
    const headers: Record<string, string> = { ...options.headers };
    if (this.cookies.size) headers.cookie = this.cookieHeader();
    if (unsafe && options.csrf !== false) headers[CSRF_HEADER] = this.cookies.get(CSRF_COOKIE) ?? '';
    let payload: string | Buffer | Readable | undefined;
    if (options.rawBody !== undefined) payload = options.rawBody;
    else if (options.body !== undefined) payload = JSON.stringify(options.body);
    if (payload !== undefined) headers['content-type'] ??= 'application/json';
    const response = await this.app.inject({ method, url, headers, payload, remoteAddress: this.options.address });
    this.remember(response);
    return response;
  }

  /** A whole file uploaded to a research as tus-js-client does it (create, then one PATCH); the last answer. */
  async upload(researchId: string, filename: string, body: Buffer, filetype = ''): Promise<LightMyRequestResponse> {
    if (!this.cookies.has(CSRF_COOKIE)) await this.request('GET', '/api/auth/csrf/');
    const metadata = Object.entries({ filename, filetype, campaign_id: researchId })
      .map(([k, v]) => `${k} ${Buffer.from(v).toString('base64')}`)
      .join(',');
    const headers = {
      'tus-resumable': '1.0.0',
      cookie: this.cookieHeader(),
      [CSRF_HEADER]: this.cookies.get(CSRF_COOKIE) ?? '',
    };
    const created = await this.app.inject({
      method: 'POST',
      url: '/mediaserver',
      remoteAddress: this.options.address,
      headers: { ...headers, 'upload-length': String(body.length), 'upload-metadata': metadata },
    });
    if (created.statusCode !== 201) return created;
    return this.app.inject({
      method: 'PATCH',
      url: String(created.headers.location),
      remoteAddress: this.options.address,
      headers: { ...headers, 'upload-offset': '0', 'content-type': 'application/offset+octet-stream' },
      payload: body,
    });
  }

  /** A draft project of this user (valid fields, the given flow type); its id. */
  async draftProject(flow_type: FlowType = 'new'): Promise<string> {
    const res = await this.request('POST', '/api/cabinet/projects/', {
      body: { title: 'Project', platform: 'cint', respondent_language: 'en', audience_type: 'simple', flow_type },
    });
    if (res.statusCode !== 201) throw new Error(`project not created: ${res.statusCode} ${res.body}`);
    return res.json().id;
  }

  /**
   * What a project needs to launch (a contentless research in a scenario, and a quota link), added to
   * a draft project of this user; the scenario's id.
   */
  async readyToLaunch(projectId: string): Promise<string> {
    const added = await this.request('POST', '/api/cabinet/projects/add-new-campaign/', {
      body: { project_id: projectId, campaigns_data: [{ title: 'Interview', content_type: 'contentless' }] },
    });
    if (added.statusCode !== 201) throw new Error(`research not added: ${added.statusCode} ${added.body}`);
    const scenario = await this.request('POST', `/api/cabinet/projects/${projectId}/scenarios/`, {
      body: { campaign_ids: [added.json().campaigns[0].id] },
    });
    if (scenario.statusCode !== 201) throw new Error(`scenario not created: ${scenario.statusCode} ${scenario.body}`);
    const link = await this.request('POST', `/api/cabinet/scenarios/${scenario.json().id}/project-accessor-links/`, {
      body: {},
    });
    if (link.statusCode !== 201) throw new Error(`quota link not created: ${link.statusCode} ${link.body}`);
    return scenario.json().id;
  }

  login(username = 'analyst', password = TEST_PASSWORD) {
    return this.request('POST', '/api/auth/login/', { body: { username, password } });
  }
}

/**
 * Marks a project launched in the database, past the launch rules: for tests of what a launch
 * freezes, whose projects hold researches without content. Launching itself is tested through the API.
 */
export async function markLaunched(app: FastifyInstance, projectId: string): Promise<void> {
  await app.ctx.database.db
    .updateTable('projects')
    .set({ status: 'active', launched_at: new Date() })
    .where('id', '=', projectId)
    .execute();
}

/**
 * A file of a research written straight to the database, with no stored bytes: for tests about
 * media rows (durations, probe retries), not about uploads. Its id.
 */
export async function insertMedia(
  app: FastifyInstance,
  row: { researchId: string; owner: string; kind: MediaKind; status: MediaStatus; duration_seconds?: number | null },
): Promise<string> {
  const id = randomUUID();
  const db = app.ctx.database.db;
  const owner = await db.selectFrom('users').select('id').where('username', '=', row.owner).executeTakeFirstOrThrow();
  const ext = row.kind === 'video' ? 'mp4' : 'png';
  await db
    .insertInto('media')
    .values({
      id,
      campaign_id: row.researchId,
      owner_id: owner.id,
      kind: row.kind,
      filename: `${id}.${ext}`,
      size: 1000,
      mime: row.kind === 'video' ? 'video/mp4' : 'image/png',
      storage_key: `campaigns/${row.researchId}/${id}.${ext}`,
      status: row.status,
      duration_seconds: row.duration_seconds ?? null,
      fps: null,
      width: null,
      height: null,
      poster_key: null,
      error: null,
    })
    .execute();
  return id;
}

/** Users made and logged in, one client each: the usual cast of a permissions test. */
export async function loggedIn<const N extends string>(
  app: FastifyInstance,
  ...usernames: N[]
): Promise<Record<N, Client>> {
  const clients = {} as Record<N, Client>;
  for (const username of usernames) {
    await seedUser(app, username);
    const client = new Client(app);
    const res = await client.login(username);
    if (res.statusCode !== 200) throw new Error(`login of ${username} failed: ${res.statusCode}`);
    clients[username] = client;
  }
  return clients;
}

/** A real photograph of a face (Debian's python3-skimage); tests that need it fail without it. */
export const ASTRONAUT = '/usr/lib/python3/dist-packages/skimage/data/astronaut.png';

/** Files under a directory, recursively, as full paths ([] when it does not exist). */
export async function filesIn(path: string): Promise<string[]> {
  if (!existsSync(path)) return [];
  const entries = await readdir(path, { recursive: true, withFileTypes: true });
  return entries.filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name));
}
