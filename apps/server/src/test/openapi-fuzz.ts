import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { type MturkContractServer, startMturkContractServer } from './contract-servers/mturk/server.ts';
import { type ProlificContractServer, startProlificContractServer } from './contract-servers/prolific/server.ts';
import { startTolokaContractServer, type TolokaContractServer } from './contract-servers/toloka/server.ts';
import { ASTRONAUT, Client, createTestApp, loggedIn, seedUser, type TestApp } from './harness.ts';
import type { Operation } from './openapi.ts';

/**
 * The OpenAPI fuzz's bad strings and its app (openapi-fuzz.test.ts): one app for the file's two tests, with the
 * users who call it and the recruiting services' contract servers. Its fixture sets: openapi-fuzz-api.ts (the
 * cabinet's and the other `/api` operations) and openapi-fuzz-respondent.ts (the respondent API, `/r`).
 */

/**
 * Each case spoils a valid value (a URL stays a URL up to the bad part), so that formats and
 * patterns checked before the bad character do not hide it.
 */
const pad = (valid: string) => valid + 'x'.repeat(100 * 1024 - valid.length);
/** As JSON carries them (JSON.stringify escapes them as \u0000 and \ud800). */
export const BODY_CASES = {
  nul: (valid: string) => `${valid}\u0000x`,
  'lone surrogate': (valid: string) => `${valid}\ud800x`,
  '100 KB': pad,
};
/** As a URL carries them: percent-encoded bytes (a lone surrogate as its CESU-8 bytes). */
export const URL_CASES = {
  nul: (valid: string) => `${encodeURIComponent(valid)}%00x`,
  'lone surrogate': (valid: string) => `${encodeURIComponent(valid)}%ED%A0%80x`,
  '100 KB': pad,
};

export const FUZZ_TOLOKA_TOKEN = 'AQAAAAAfuzzTolokaToken-0001';
export const FIXTURE_TOLOKA_TOKEN = 'AQAAAAAfuzzTolokaToken-0002';
export const FIXTURE_PROLIFIC_TOKEN = 'fuzz-prolific-api-token-0002';

/** The fuzz's app and who calls it. */
export interface FuzzApp {
  t: TestApp;
  /** The picture the fixture sets upload. */
  png: Buffer;
  alice: Client;
  /** A categorizer admin: the categories directory and norm bases are theirs to change. */
  carol: Client;
  /** Staff: licence packages are theirs to add. */
  dave: Client;
  bobPublicId: string;
}

/**
 * The fuzz's app for the whole file, made before its tests and closed after them (nothing is emptied between
 * them); the function given back reaches it.
 */
export function fuzzAppPerFile(): () => FuzzApp {
  let t: TestApp | undefined;
  let dir: string | undefined;
  /** Toloka and MTurk as the contract servers: linking a token asks the service (the valid bodies are accepted). */
  let toloka: TolokaContractServer | undefined;
  let mturk: MturkContractServer | undefined;
  let prolific: ProlificContractServer | undefined;
  let current: FuzzApp | undefined;
  beforeAll(async () => {
    if (!existsSync(ASTRONAUT)) throw new Error(`${ASTRONAUT} missing: apt-get install -y python3-skimage`);
    const png = await readFile(ASTRONAUT);
    dir = await mkdtemp(join(tmpdir(), 'emolens-fuzz-test-'));
    toloka = await startTolokaContractServer({ tokens: [FUZZ_TOLOKA_TOKEN, FIXTURE_TOLOKA_TOKEN] });
    mturk = await startMturkContractServer();
    // Prolific accepts the token the sampled bodies carry (`known`) and alice's own.
    prolific = await startProlificContractServer({ tokens: [FUZZ_TOLOKA_TOKEN, FIXTURE_PROLIFIC_TOKEN] });
    // Hundreds of requests in a minute: the per-address API limit is not under test here.
    t = await createTestApp({
      storage: { kind: 'local', dir: join(dir, 'media') },
      uploadDir: join(dir, 'uploads'),
      rateLimitPerMinute: 1_000_000,
      tolokaBaseUrl: toloka.url,
      tolokaSandboxBaseUrl: toloka.url,
      mturkEndpoint: mturk.url,
      prolificBaseUrl: prolific.url,
      // MTurk frames only HTTPS pages: a HIT is made only for an HTTPS installation.
      publicUrl: 'https://emolens.example',
      publicUrlSet: true,
    });
    const clients = await loggedIn(t.app, 'alice', 'bob');
    await seedUser(t.app, 'carol', { role: 'categorizer_admin' });
    const carol = new Client(t.app);
    await carol.login('carol');
    await seedUser(t.app, 'dave', { role: 'super_user' });
    const dave = new Client(t.app);
    await dave.login('dave');
    const bobPublicId = (await clients.bob.request('GET', '/api/users/user-data/')).json().public_user_id;
    current = { t, png, alice: clients.alice, carol, dave, bobPublicId };
  });
  afterAll(async () => {
    await t?.close();
    await Promise.all([toloka?.close(), mturk?.close(), prolific?.close()]);
    if (dir) await rm(dir, { recursive: true, force: true });
  });
  return () => {
    if (!current) throw new Error('the fuzz app is made before the tests (beforeAll)');
    return current;
  };
}

/** The fixture a path's `{param}` names in `bySegment`, by the path segment before it. */
export function fixtureOf<T extends Record<string, string>>(bySegment: T, op: Operation, param: string): T[keyof T] {
  const segments = op.path.split('/');
  const before = segments[segments.indexOf(`{${param}}`) - 1] ?? '';
  const fixture = bySegment[before as keyof T];
  if (!fixture) throw new Error(`${op.method} ${op.path}: no fixture for {${param}} after "${before}"; add one`);
  return fixture;
}

export async function ok(res: { statusCode: number; body: string }, what: string, status = 201) {
  if (res.statusCode !== status) throw new Error(`${what}: ${res.statusCode} ${res.body}`);
}
