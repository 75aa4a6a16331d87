import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CONSENT_POLICY_VERSION, createReportInput, DOT_TEST_LIMITS } from '@emolens/contracts';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildReportJob } from './modules/reports/jobs/build-report.job.ts';
import {
  CONTRACT_ACCESS_KEY_ID,
  CONTRACT_SECRET_ACCESS_KEY,
  type MturkContractServer,
  startMturkContractServer,
} from './test/contract-servers/mturk/server.ts';
import { type ProlificContractServer, startProlificContractServer } from './test/contract-servers/prolific/server.ts';
import { startTolokaContractServer, type TolokaContractServer } from './test/contract-servers/toloka/server.ts';
import {
  ASTRONAUT,
  Client,
  createTestApp,
  insertMedia,
  loggedIn,
  markLaunched,
  seedUser,
  TEST_BACKEND,
  TEST_PASSWORD,
  type TestApp,
} from './test/harness.ts';
import {
  bodyWith,
  fillPath,
  type Known,
  leafName,
  type Operation,
  openApiOperations,
  type Step,
  sample,
  stringLeaves,
} from './test/openapi.ts';
import { insertProcessedRespondent } from './test/report-rows.ts';
import {
  createQuestionnaire,
  journeyEvents,
  launchedLink,
  linkQuestionnaires,
  type RespondentClient,
  respondentClient,
  TINY_WEBM,
} from './test/respondent.ts';
import {
  insertEventLog,
  insertRecording,
  insertRespondentSession,
  insertVideoProcess,
} from './test/respondent-rows.ts';

/**
 * Every operation of the served OpenAPI document, every string of its body (at any depth), every
 * query and path parameter: a NUL, a lone surrogate and a 100 KB string each, sent by a logged-in
 * user with real ids of existing objects elsewhere, so that the bad string is the only fault.
 * None may answer 5xx.
 */

/**
 * Each case spoils a valid value (a URL stays a URL up to the bad part), so that formats and
 * patterns checked before the bad character do not hide it.
 */
const pad = (valid: string) => valid + 'x'.repeat(100 * 1024 - valid.length);
/** As JSON carries them (JSON.stringify escapes them as \u0000 and \ud800). */
const BODY_CASES = {
  nul: (valid: string) => `${valid}\u0000x`,
  'lone surrogate': (valid: string) => `${valid}\ud800x`,
  '100 KB': pad,
};
/** As a URL carries them: percent-encoded bytes (a lone surrogate as its CESU-8 bytes). */
const URL_CASES = {
  nul: (valid: string) => `${encodeURIComponent(valid)}%00x`,
  'lone surrogate': (valid: string) => `${encodeURIComponent(valid)}%ED%A0%80x`,
  '100 KB': pad,
};

/** The object a path's `{id}` names, by the path segment before it. */
const RESOURCE_OF_SEGMENT = {
  projects: 'project',
  campaigns: 'research',
  scenarios: 'scenario',
  'project-accessor-links': 'link',
  media: 'media',
  'respondent-sessions': 'session',
  recordings: 'segment',
  'cint-processes-statistic': 'research',
  'video-processes': 'process',
  demo: 'demo',
  surveys: 'survey',
  reports: 'report',
  categories: 'category',
  imports: 'normImport',
  files: 'fileKind',
  tokens: 'apiToken',
  'recruiting-tokens': 'recruitingToken',
  shares: 'sharee',
  // A licence account: bob's, by his public id.
  accounts: 'sharee',
  'self-service': 'selfServiceTest',
  'access-requests': 'accessRequest',
  endpoints: 'webhookEndpoint',
} as const;
type Resource = (typeof RESOURCE_OF_SEGMENT)[keyof typeof RESOURCE_OF_SEGMENT];
const TABLE_OF = {
  project: 'projects',
  research: 'campaigns',
  scenario: 'scenarios',
  survey: 'surveys',
  selfServiceTest: 'self_service_tests',
} as const;

let t: TestApp;
let dir: string;
let png: Buffer;
let alice: Client;
/** A categorizer admin: the categories directory and norm bases are theirs to change. */
let carol: Client;
/** Staff: licence packages are theirs to add. */
let dave: Client;
let bobPublicId: string;
/** Toloka and MTurk as the contract servers: linking a token asks the service (the valid bodies are accepted). */
let toloka: TolokaContractServer;
let mturk: MturkContractServer;
let prolific: ProlificContractServer;
const FUZZ_TOLOKA_TOKEN = 'AQAAAAAfuzzTolokaToken-0001';
const FIXTURE_TOLOKA_TOKEN = 'AQAAAAAfuzzTolokaToken-0002';
const FIXTURE_PROLIFIC_TOKEN = 'fuzz-prolific-api-token-0002';

beforeAll(async () => {
  if (!existsSync(ASTRONAUT)) throw new Error(`${ASTRONAUT} missing: apt-get install -y python3-skimage`);
  png = await readFile(ASTRONAUT);
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
  alice = clients.alice;
  await seedUser(t.app, 'carol', { role: 'categorizer_admin' });
  carol = new Client(t.app);
  await carol.login('carol');
  await seedUser(t.app, 'dave', { role: 'super_user' });
  dave = new Client(t.app);
  await dave.login('dave');
  bobPublicId = (await clients.bob.request('GET', '/api/users/user-data/')).json().public_user_id;
});
afterAll(async () => {
  await t?.close();
  await Promise.all([toloka?.close(), mturk?.close(), prolific?.close()]);
  if (dir) await rm(dir, { recursive: true, force: true });
});

async function ok(res: { statusCode: number; body: string }, what: string, status = 201) {
  if (res.statusCode !== status) throw new Error(`${what}: ${res.statusCode} ${res.body}`);
}

/**
 * A fresh set of objects for one operation: a draft project, a pictures research with a picture, a scenario, a quota
 * link, a respondent session with a recording and a video process, an unlinked questionnaire.
 */
async function fixtures(): Promise<Record<Resource, string>> {
  const project = await alice.draftProject();
  const added = await alice.request('POST', '/api/cabinet/projects/add-new-campaign/', {
    body: { project_id: project, campaigns_data: [{ title: 'Pack shots', content_type: 'pictures' }] },
  });
  await ok(added, 'research');
  const research: string = added.json().campaigns[0].id;
  const uploaded = await alice.upload(research, 'pack.png', png, 'image/png');
  await ok(uploaded, 'picture', 204);
  const media = String(uploaded.headers['x-media-id']);
  // The research's survey (its statistics and export have a questionnaire to read).
  const surveyRes = await alice.request('POST', '/api/cabinet/surveys/', { body: { type: 'survey', title: 'After' } });
  await ok(surveyRes, 'questionnaire');
  const survey: string = surveyRes.json().id;
  const scenarioRes = await alice.request('POST', `/api/cabinet/projects/${project}/scenarios/`, {
    body: { campaign_ids: [research], embedded_survey_id: survey },
  });
  await ok(scenarioRes, 'scenario');
  const scenario: string = scenarioRes.json().id;
  const linkRes = await alice.request('POST', `/api/cabinet/scenarios/${scenario}/project-accessor-links/`, {
    body: {},
  });
  await ok(linkRes, 'quota link');
  const link: string = linkRes.json().id;
  // A respondent session with a recording segment (written to the tables: the fields under test are the cabinet's).
  const session = await insertRespondentSession(t.app, { linkId: link, status: 'completed', quotaState: 'pending' });
  await insertRecording(t.app, session, 0, [Buffer.from('webm')]);
  const process = await insertVideoProcess(t.app, { sessionId: session, researchId: research, status: 'done' });
  // A demo analysis of alice's (the row alone: the fields under test are the route's).
  const owner = await t.app.ctx.deps.users.findByUsername('alice');
  const demo = crypto.randomUUID();
  await t.app.ctx.deps.interviewAnalysis.insert({
    id: demo,
    owner_id: owner?.id ?? '',
    kind: 'demo',
    filename: 'me.webm',
    size: 4,
    mime: 'video/webm',
    storage_key: `demo/${owner?.id}/${demo}.webm`,
    duration_seconds: 1,
  });
  // A processed respondent (a report has someone to count) and a built report of the research.
  const watched = await insertRespondentSession(t.app, { linkId: link, status: 'completed' });
  await insertProcessedRespondent(t.app, { sessionId: watched, researchId: research }, { engagement: [0.5, 0.6] });
  const report = await t.app.ctx.deps.reports.create(
    research,
    owner?.id ?? '',
    createReportInput.parse({ name: 'Fuzz' }),
  );
  await t.app.ctx.queue.run(buildReportJob, { report_id: report?.id, generation: 1 });
  // A value of the categories directory and an imported norm base (carol's to change).
  const category = await carol.request('POST', '/api/cabinet/categories/', {
    body: { kind: 'sector', name: `Sector ${crypto.randomUUID()}` },
  });
  await ok(category, 'category');
  const normImport = await carol.request('POST', '/api/cabinet/benchmarks/imports/', {
    body: {
      name: 'Norms',
      file: {
        format: 'emolens-norms',
        version: 1,
        exported_at: new Date().toISOString(),
        entries: [
          {
            content_type: 'video',
            subtype: 'Ads',
            respondents: 5,
            metrics: { mean_engagement: 0.3, peak_engagement: 0.5, mean_valence: 0, mean_attention: 0.9, score: 40 },
          },
        ],
      },
    },
  });
  await ok(normImport, 'norm import');
  // One of alice's API tokens (revoking it is an operation); the earlier operations' ones are gone.
  await t.database.db.deleteFrom('api_tokens').execute();
  const apiToken = await alice.request('POST', '/api/users/api-access/access-api-token/', {
    body: { scope: 'report_builder' },
  });
  await ok(apiToken, 'API token', 201);
  // One of alice's Toloka tokens, shared with bob (a sandbox one: linking the sampled production token is no repeat).
  await t.database.db.deleteFrom('recruiting_tokens').execute();
  // One of alice's self-service drafts.
  const selfServiceTest = await alice.request('POST', '/api/cabinet/self-service/', { body: { title: 'Fuzz test' } });
  await ok(selfServiceTest, 'self-service test');
  const recruitingToken = await alice.request('POST', '/api/cabinet/recruiting-tokens/toloka/', {
    body: { description: 'Fuzz', token: FIXTURE_TOLOKA_TOKEN, environment: 'sandbox' },
  });
  await ok(recruitingToken, 'Toloka token');
  await ok(
    await alice.request('POST', `/api/cabinet/recruiting-tokens/${recruitingToken.json().id}/shares/`, {
      body: { user_id: bobPublicId },
    }),
    'Toloka token share',
    204,
  );
  // One of alice's webhook endpoints, made in the database: its address need not resolve here (there is no DNS).
  const aliceRow = await t.database.db
    .selectFrom('users')
    .select('id')
    .where('username', '=', 'alice')
    .executeTakeFirstOrThrow();
  const webhookEndpoint = await t.app.ctx.deps.webhooks.create(aliceRow.id, {
    url: 'https://hooks.example.org/emolens',
    description: 'Fuzz',
    eventTypes: ['report.built'],
    secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
    prefix: 'whsec_MfKQ',
  });
  return {
    project,
    research,
    scenario,
    link,
    media,
    session,
    segment: '0',
    process,
    demo,
    survey,
    report: report?.id ?? '',
    category: category.json().id,
    normImport: normImport.json().id,
    fileKind: 'presentation',
    apiToken: apiToken.json().id,
    recruitingToken: recruitingToken.json().id,
    sharee: bobPublicId,
    selfServiceTest: selfServiceTest.json().id,
    webhookEndpoint: webhookEndpoint.id,
    // A request for access (the row alone: the public form's fields are fuzzed through its own operation).
    accessRequest: await t.app.ctx.deps.accessRequests.insert({
      name: 'Anna',
      company: 'Acme',
      email: 'anna@acme.example',
      package: 'basic',
      message: '',
    }),
  };
}

/** The research's project as a launched Toloka project (a pool can be made for it with alice's active token). */
async function withTolokaProject(fx: Record<Resource, string>) {
  await t.app.ctx.database.db
    .updateTable('projects')
    .set({ platform: 'toloka', status: 'active', launched_at: new Date() })
    .where('id', '=', fx.project)
    .execute();
  // Its quota link's quota is the pool's respondents when the body names none.
  await t.app.ctx.database.db
    .updateTable('project_accessor_links')
    .set({ quota_size: 50 })
    .where('id', '=', fx.link)
    .execute();
}

/** The research's Toloka pool, made with alice's active token (its acceptance setting and decisions need one). */
async function withTolokaPool(fx: Record<Resource, string>) {
  await withTolokaProject(fx);
  await ok(
    await alice.request('POST', `/api/cabinet/campaigns/${fx.research}/toloka/`, {
      body: { title: 'Fuzz pool', reward: 0.5 },
    }),
    'Toloka pool',
  );
}

/** The research's project as a launched Prolific project, alice's Prolific token active; with `study`, its study made. */
async function withProlificProject(fx: Record<Resource, string>, study: boolean) {
  await withTolokaProject(fx);
  await t.app.ctx.database.db
    .updateTable('projects')
    .set({ platform: 'prolific' })
    .where('id', '=', fx.project)
    .execute();
  await ok(
    await alice.request('POST', '/api/cabinet/recruiting-tokens/prolific/', {
      body: { description: 'Fuzz', token: FIXTURE_PROLIFIC_TOKEN },
    }),
    'Prolific token',
  );
  if (!study) return;
  await ok(
    await alice.request('POST', `/api/cabinet/campaigns/${fx.research}/prolific/`, {
      body: {
        title: 'Fuzz study',
        description: 'Watch a video with the webcam on.',
        reward: 1.25,
        places: 10,
        minutes: 10,
      },
    }),
    'Prolific study',
  );
}

/** The research's project as a launched Amazon project, alice's MTurk keys active; with `hit`, its HIT made. */
async function withMturkProject(fx: Record<Resource, string>, hit: boolean) {
  await withTolokaProject(fx);
  await t.app.ctx.database.db
    .updateTable('projects')
    .set({ platform: 'amazon' })
    .where('id', '=', fx.project)
    .execute();
  await ok(
    await alice.request('POST', '/api/cabinet/recruiting-tokens/mturk/', {
      body: {
        description: 'Fuzz MTurk',
        access_key_id: CONTRACT_ACCESS_KEY_ID,
        secret_access_key: CONTRACT_SECRET_ACCESS_KEY,
        environment: 'sandbox',
      },
    }),
    'MTurk keys',
  );
  if (hit) {
    await ok(
      await alice.request('POST', `/api/cabinet/campaigns/${fx.research}/mturk/`, {
        body: { title: 'Fuzz HIT', description: 'Fuzz', reward: 0.5 },
      }),
      'MTurk HIT',
    );
  }
}

/** The research as a website prototype whose respondent ran its second task (the sampled body's task 1): a run to mark. */
async function withTaskRun(fx: Record<Resource, string>) {
  const db = t.app.ctx.database.db;
  await db.updateTable('campaigns').set({ content_type: 'site' }).where('id', '=', fx.research).execute();
  await insertEventLog(t.app, fx.session, [
    { type: 'research_start', t: 1000, campaign_id: fx.research, index: 0 },
    { type: 'task_shown', t: 2000, task: 1 },
    { type: 'task_result', t: 3000, task: 1, result: 'success' },
  ]);
}

function resourceOf(op: Operation, param: string): Resource {
  const segments = op.path.split('/');
  const before = segments[segments.indexOf(`{${param}}`) - 1] ?? '';
  const resource = RESOURCE_OF_SEGMENT[before as keyof typeof RESOURCE_OF_SEGMENT];
  if (!resource) throw new Error(`${op.method} ${op.path}: no fixture for {${param}} after "${before}"; add one`);
  return resource;
}

/** Values for properties that must name existing objects or the current version to pass. */
async function known(op: Operation, fx: Record<Resource, string>): Promise<Known> {
  const values: Known = {
    project_id: fx.project,
    campaign_ids: [fx.research],
    campaigns: [fx.research],
    order: [fx.scenario],
    image: fx.media,
    id: fx.scenario,
    public_user_id: bobPublicId,
    // Linking a Toloka or Amazon token: what the contract servers accept; sharing one: bob.
    token: FUZZ_TOLOKA_TOKEN,
    access_key_id: CONTRACT_ACCESS_KEY_ID,
    secret_access_key: CONTRACT_SECRET_ACCESS_KEY,
    user_id: bobPublicId,
    username: 'alice',
    password: TEST_PASSWORD,
    // Deleting a respondent's data needs a session of the project to find.
    identifier_kind: 'session_id',
    identifier: fx.session,
    // The research's questionnaire is a survey (its statistics and export).
    slot: 'survey',
    // A task run to mark (withTaskRun).
    session_id: fx.session,
    // A pool's or HIT's reward: whole cents.
    reward: 0.5,
    // A self-service test's audience: countries.
    regions: ['RU'],
    // A webhook endpoint's address: a public one, by IP (there is no DNS here).
    url: 'https://93.184.216.34/emolens',
    // A request for access names an address to write to.
    email: 'fuzz@example.com',
  };
  const param = op.pathParams[0];
  const resource = param ? resourceOf(op, param) : undefined;
  if (
    resource === 'project' ||
    resource === 'research' ||
    resource === 'scenario' ||
    resource === 'survey' ||
    resource === 'selfServiceTest'
  ) {
    const rows = await sql<{
      updated_at: Date;
    }>`select updated_at from ${sql.table(TABLE_OF[resource])} where id = ${fx[resource]}`.execute(t.database.db);
    if (rows.rows[0]) values.updated_at = new Date(rows.rows[0].updated_at).toISOString();
  }
  return values;
}

/** Operations that need more than a fresh set of objects: each has a setup of its own below. */
const OWN_SETUP = [
  /\/task-marks\/$/,
  /\/toloka\/$/,
  /\/toloka\/(acceptance|decisions\/confirm)\/$/,
  /\/self-service\/\{id\}\/moderation\/$/,
  /\/campaigns\/\{id\}\/mturk\//,
  /\/campaigns\/\{id\}\/prolific\//,
];
/** A read with no setup of its own changes nothing: the reads share one set of objects (about 0.4 s of CPU each). */
const sharedRead = (op: Operation) => op.method === 'GET' && !OWN_SETUP.some((re) => re.test(op.path));

describe(`OpenAPI fuzz on ${TEST_BACKEND}`, () => {
  it('answers no 5xx to a NUL, a lone surrogate or 100 KB in any string of any operation', async () => {
    // The reads first, on their shared set, before any other operation's set is made (a new set removes the API and
    // recruiting tokens of the earlier ones); every other operation on a set of its own.
    const operations = (await openApiOperations(t.app))
      .filter((op) => op.path.startsWith('/api/'))
      .sort((a, b) => Number(sharedRead(b)) - Number(sharedRead(a)));
    let reads: Record<Resource, string> | undefined;
    const failures: string[] = [];
    const baselineFailures: string[] = [];
    const notAtEdge: string[] = [];
    let cases = 0;
    let bodyCases = 0;
    const exercised = new Set<string>();

    for (const op of operations) {
      const leaves = op.body ? stringLeaves(op.body) : [];
      if (!leaves.length && !op.queryParams.length && !op.pathParams.length) continue;
      const name = `${op.method} ${op.path}`;
      exercised.add(name);
      if (sharedRead(op)) reads ??= await fixtures();
      const fx = sharedRead(op) && reads ? reads : await fixtures();
      if (op.path.endsWith('/task-marks/')) await withTaskRun(fx);
      if (/\/toloka\/$/.test(op.path)) await withTolokaProject(fx);
      if (/\/toloka\/(acceptance|decisions\/confirm)\/$/.test(op.path)) await withTolokaPool(fx);
      // Moderation needs a test waiting for it.
      if (op.path.endsWith('/self-service/{id}/moderation/')) {
        await t.database.db
          .updateTable('self_service_tests')
          .set({ state: 'moderation' })
          .where('id', '=', fx.selfServiceTest)
          .execute();
      }
      if (/\/campaigns\/\{id\}\/mturk\//.test(op.path)) {
        await withMturkProject(fx, /\/mturk\/(acceptance|decisions\/confirm)\/$/.test(op.path));
      }
      if (/\/campaigns\/\{id\}\/prolific\//.test(op.path)) {
        await withProlificProject(fx, !/\/prolific\/$/.test(op.path));
      }
      const ids = Object.fromEntries(op.pathParams.map((p) => [p, fx[resourceOf(op, p)]]));
      const path = fillPath(op.path, ids);
      const client = /^\/api\/cabinet\/(categories|benchmarks)\//.test(op.path)
        ? carol
        : op.path.startsWith('/api/cabinet/licences/accounts/') ||
            op.path.endsWith('/moderation/') ||
            op.path.startsWith('/api/cabinet/access-requests/')
          ? dave
          : alice;
      const send = async (where: string, label: string, url: string, body: () => Promise<unknown>) => {
        cases++;
        const res = await client.request(op.method, url, { body: await body() });
        if (res.statusCode >= 500) failures.push(`${name} ${where} [${label}] -> ${res.statusCode} ${res.body}`);
        return res;
      };
      const validBody = async () => (op.body ? sample(op.body, await known(op, fx)) : undefined);

      for (const steps of leaves) {
        const leaf = steps.at(-1) as Step;
        for (const [label, spoil] of Object.entries(BODY_CASES)) {
          bodyCases++;
          const res = await send(`body.${leafName(steps)}`, label, path, async () => {
            const values = await known(op, fx);
            return bodyWith(op.body ?? {}, steps, spoil(String(sample(leaf.schema, values, leaf.name))), values);
          });
          // The edge rule, not a later check, refused the bad character, and named the field.
          const refused = res.statusCode === 400 && res.json().code === 'invalid_text';
          if (label !== '100 KB' && !(refused && leafName(steps) in res.json().fields)) {
            notAtEdge.push(`${name} body.${leafName(steps)} [${label}] -> ${res.statusCode} ${res.body}`);
          }
        }
      }
      for (const q of op.queryParams) {
        for (const [label, spoil] of Object.entries(URL_CASES)) {
          const value = spoil(String(sample(q.schema, { project_id: fx.project }, q.name)));
          await send(`query.${q.name}`, label, `${path}?${q.name}=${value}`, validBody);
        }
      }
      for (const p of op.pathParams) {
        for (const [label, spoil] of Object.entries(URL_CASES)) {
          const value = spoil(ids[p] ?? '');
          await send(`path.${p}`, label, fillPath(op.path, { ...ids, [p]: value }, true), validBody);
        }
      }
      // The same body without the bad string is accepted: the cases above reached the handler.
      if (op.body) {
        const res = await client.request(op.method, path, { body: await validBody() });
        if (res.statusCode >= 300) baselineFailures.push(`${name} -> ${res.statusCode} ${res.body}`);
      }
    }

    const summary = `${exercised.size} operations, ${cases} cases (${bodyCases} in bodies)`;
    expect(failures, `${failures.length} of ${cases} cases answered 5xx (${summary}):\n${failures.join('\n')}`).toEqual(
      [],
    );
    expect(notAtEdge, `not refused as invalid_text:\n${notAtEdge.join('\n')}`).toEqual([]);
    expect(baselineFailures, `valid bodies refused:\n${baselineFailures.join('\n')}`).toEqual([]);
    // It cannot pass by testing nothing: the document's operations and their strings were all sent.
    expect(exercised.size, summary).toBeGreaterThanOrEqual(35);
    expect(bodyCases, summary).toBeGreaterThanOrEqual(250);
    expect(cases, summary).toBeGreaterThanOrEqual(360);
  }, 600_000);
});

// ---------------------------------------------------------------------------------------------
// The respondent API (/r): anonymous, reached with a link's token or a session's secret.

/** What a `/r` path's parameter names, by the path segment before it. */
const RESPONDENT_PARAM_OF_SEGMENT = {
  links: 'token',
  sessions: 'session',
  media: 'media',
  segments: 'segment',
  chunks: 'index',
  quota: 'project',
  'dot-tests': 'dotTest',
  surveys: 'slot',
  'calibration-checks': 'attempt',
} as const;
type RespondentFixture = (typeof RESPONDENT_PARAM_OF_SEGMENT)[keyof typeof RESPONDENT_PARAM_OF_SEGMENT];

const SURVEY_ANSWERS = { why: { text: 'It was short' } };

/** A launched project on a panel without its own consent; a running session that recorded a chunk and logged its journey. */
async function respondentFixtures(): Promise<{
  values: Record<RespondentFixture, string>;
  client: RespondentClient;
  dotTestSecret: string;
}> {
  const link = await launchedLink(t.app, alice, { launch: false });
  // A survey after the content, with an open question: its answers are strings a respondent sends.
  const survey = await createQuestionnaire(alice, {
    type: 'survey',
    title: 'After the video',
    questions: [{ id: 'why', type: 'text', text: { en: 'Why?' } }],
  });
  await linkQuestionnaires(alice, link.projectId, link.scenarioId, { embedded_survey_id: survey });
  await markLaunched(t.app, link.projectId);
  await t.database.db
    .updateTable('projects')
    .set({ platform: 'own_audience' })
    .where('id', '=', link.projectId)
    .execute();
  const media = await insertMedia(t.app, {
    researchId: link.researchIds[0] as string,
    owner: 'alice',
    kind: 'image',
    status: 'ready',
  });
  const client = respondentClient(t.app);
  await ok(await client.start(link.token), 'respondent session');
  await ok(await client.segment(), 'segment');
  await ok(await client.chunk(0, 0, TINY_WEBM), 'first chunk');
  await ok(
    await client.events(0, journeyEvents(client.session?.researches.map((r) => r.campaign_id) ?? [])),
    'the journey',
  );
  // The survey answered (the completion waits for it); the answers' baseline body repeats these.
  await ok(await client.answers('survey', SURVEY_ANSWERS, true), 'survey answers', 200);
  // A setup check that recorded its chunk and its calibration (reached with its own secret).
  const dot = respondentClient(t.app);
  const started = await dot.request('POST', '/r/dot-tests', { secret: null, body: dotTestStartBody() });
  await ok(started, 'dot test');
  dot.secret = started.json().secret;
  const dotTest: string = started.json().test.id;
  await ok(
    await dot.request('PUT', `/r/dot-tests/${dotTest}/chunks/0`, {
      raw: TINY_WEBM,
      headers: { 'x-chunk-sha256': createHash('sha256').update(TINY_WEBM).digest('hex') },
    }),
    'dot test chunk',
  );
  await ok(
    await dot.request('POST', `/r/dot-tests/${dotTest}/events`, {
      body: {
        seq: 0,
        events: [
          { type: 'calibration_start', t: 1 },
          { type: 'calibration_dot', t: 2, x: 10, y: 10 },
          { type: 'calibration_end', t: 3 },
          { type: 'validation_dot', t: 4, x: 10, y: 10 },
          { type: 'validation_end', t: 5 },
        ],
      },
    }),
    'dot test events',
  );
  return {
    values: {
      token: link.token,
      session: client.sessionId,
      media,
      segment: '0',
      index: '0',
      project: link.projectId,
      dotTest,
      slot: 'survey',
      attempt: '1',
    },
    client,
    dotTestSecret: dot.secret,
  };
}

function respondentParamOf(op: Operation, param: string): RespondentFixture {
  const segments = op.path.split('/');
  const before = segments[segments.indexOf(`{${param}}`) - 1] ?? '';
  const fixture = RESPONDENT_PARAM_OF_SEGMENT[before as keyof typeof RESPONDENT_PARAM_OF_SEGMENT];
  if (!fixture) throw new Error(`${op.method} ${op.path}: no fixture for {${param}} after "${before}"; add one`);
  return fixture;
}

/**
 * Valid bodies of the respondent operations whose rules a minimal sample cannot meet (the consent's
 * policy version, event times on the session clock, the batch number next expected); others are sampled.
 */
const dotTestStartBody = () => ({
  consent: { accepted: true, retention_days: DOT_TEST_LIMITS.retentionDays, language: 'en' },
  screen: { width: 1280, height: 800, device_pixel_ratio: 1 },
  mime_type: 'video/webm',
});

function respondentBody(op: Operation): unknown {
  switch (`${op.method} ${op.path}`) {
    case 'POST /r/links/{token}/sessions':
      return {
        consent: { accepted: true, policy_version: CONSENT_POLICY_VERSION, language: 'en' },
        screen: { width: 1280, height: 800, device_pixel_ratio: 1 },
      };
    case 'POST /r/sessions/{id}/events':
      return { seq: 1, events: [{ type: 'step', t: 100, step: 'end' }] };
    case 'POST /r/sessions/{id}/complete':
      return { segments: [{ segment: 0, chunks: 1 }], event_batches: 1 };
    case 'PUT /r/sessions/{id}/surveys/{slot}/answers':
      return { answers: SURVEY_ANSWERS, final: true };
    case 'POST /r/dot-tests':
      return dotTestStartBody();
    case 'POST /r/dot-tests/{id}/events':
      return { seq: 1, events: [{ type: 'visibility', t: 100, hidden: false }] };
    case 'POST /r/dot-tests/{id}/complete':
      return { chunks: 1, event_batches: 1 };
    default:
      return op.body ? sample(op.body, { policy_version: CONSENT_POLICY_VERSION }) : undefined;
  }
}

describe(`OpenAPI fuzz of the respondent API on ${TEST_BACKEND}`, () => {
  it('answers no 5xx to a NUL, a lone surrogate or 100 KB in any string, path or query of any /r operation', async () => {
    const operations = (await openApiOperations(t.app)).filter((op) => op.path.startsWith('/r/'));
    const failures: string[] = [];
    const notAtEdge: string[] = [];
    const baselineFailures: string[] = [];
    const exercised = new Set<string>();
    let cases = 0;

    for (const op of operations) {
      const name = `${op.method} ${op.path}`;
      exercised.add(name);
      const { values, client, dotTestSecret } = await respondentFixtures();
      if (op.path.startsWith('/r/dot-tests/')) client.secret = dotTestSecret;
      const ids = Object.fromEntries(op.pathParams.map((p) => [p, values[respondentParamOf(op, p)]]));
      const path = fillPath(op.path, ids);
      const known = { policy_version: CONSENT_POLICY_VERSION };
      const send = async (where: string, label: string, url: string, body: unknown) => {
        cases++;
        const res = await client.request(op.method as 'GET' | 'POST' | 'PUT', url, { body });
        if (res.statusCode >= 500) failures.push(`${name} ${where} [${label}] -> ${res.statusCode} ${res.body}`);
        return res;
      };
      for (const steps of op.body ? stringLeaves(op.body) : []) {
        const leaf = steps.at(-1) as Step;
        for (const [label, spoil] of Object.entries(BODY_CASES)) {
          const body = bodyWith(op.body ?? {}, steps, spoil(String(sample(leaf.schema, known, leaf.name))), known);
          const res = await send(`body.${leafName(steps)}`, label, path, body);
          const refused = res.statusCode === 400 && res.json().code === 'invalid_text';
          if (label !== '100 KB' && !(refused && leafName(steps) in res.json().fields)) {
            notAtEdge.push(`${name} body.${leafName(steps)} [${label}] -> ${res.statusCode} ${res.body}`);
          }
        }
      }
      for (const q of op.queryParams) {
        for (const [label, spoil] of Object.entries(URL_CASES)) {
          const value = spoil(String(sample(q.schema, {}, q.name)));
          await send(`query.${q.name}`, label, `${path}?${q.name}=${value}`, respondentBody(op));
        }
      }
      for (const p of op.pathParams) {
        for (const [label, spoil] of Object.entries(URL_CASES)) {
          const value = spoil(ids[p] ?? '');
          await send(`path.${p}`, label, fillPath(op.path, { ...ids, [p]: value }, true), respondentBody(op));
        }
      }
      if (op.body) {
        const res = await client.request(op.method as 'GET' | 'POST' | 'PUT', path, {
          body: respondentBody(op),
        });
        // The fixture's research is a video, whose calibration is not checked before the content (decision 050): the
        // valid body reaches the service, which refuses the state, not the body.
        // Nor does it keep the video on the device (privacy mode, decision 064): the device calls are refused so too.
        const stateRefused =
          (name === 'POST /r/sessions/{id}/calibration-checks' &&
            res.statusCode === 409 &&
            res.json().key === 'respondent.calibrationCheckOff') ||
          (['POST /r/sessions/{id}/device-check', 'POST /r/sessions/{id}/analysis-site'].includes(name) &&
            res.statusCode === 409 &&
            res.json().key === 'respondent.deviceAnalysisOff');
        if (res.statusCode >= 300 && !stateRefused) baselineFailures.push(`${name} -> ${res.statusCode} ${res.body}`);
      }
    }

    const summary = `${exercised.size} operations, ${cases} cases`;
    expect(failures, `${failures.length} of ${cases} cases answered 5xx (${summary}):\n${failures.join('\n')}`).toEqual(
      [],
    );
    expect(notAtEdge, `not refused as invalid_text:\n${notAtEdge.join('\n')}`).toEqual([]);
    expect(baselineFailures, `valid bodies refused:\n${baselineFailures.join('\n')}`).toEqual([]);
    // The respondent's own operations were all there and sent.
    for (const op of [
      'GET /r/links/{token}',
      'POST /r/links/{token}/sessions',
      'POST /r/links/{token}/turned-away',
      'GET /r/sessions/{id}',
      'POST /r/sessions/{id}/segments',
      'PUT /r/sessions/{id}/segments/{segment}/chunks/{index}',
      'POST /r/sessions/{id}/events',
      'POST /r/sessions/{id}/complete',
      'POST /r/sessions/{id}/leave',
      'PUT /r/sessions/{id}/surveys/{slot}/answers',
      'POST /r/sessions/{id}/calibration-checks',
      'GET /r/sessions/{id}/calibration-checks/{attempt}',
      'POST /r/sessions/{id}/device-check',
      'POST /r/sessions/{id}/analysis-site',
      'POST /r/sessions/{id}/device-too-slow',
      'GET /r/media/{id}',
      'POST /r/dot-tests',
      'GET /r/dot-tests/{id}',
      'PUT /r/dot-tests/{id}/chunks/{index}',
      'POST /r/dot-tests/{id}/events',
      'POST /r/dot-tests/{id}/complete',
      'DELETE /r/dot-tests/{id}',
    ]) {
      expect(exercised, summary).toContain(op);
    }
    expect(cases, summary).toBeGreaterThanOrEqual(100);
  }, 600_000);
});
