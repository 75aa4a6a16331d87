import { createReportInput } from '@emolens/contracts';
import { sql } from 'kysely';
import { buildReportJob } from '../modules/reports/jobs/build-report.job.ts';
import { CONTRACT_ACCESS_KEY_ID, CONTRACT_SECRET_ACCESS_KEY } from './contract-servers/mturk/server.ts';
import { TEST_PASSWORD } from './harness.ts';
import type { Known, Operation } from './openapi.ts';
import {
  FIXTURE_PROLIFIC_TOKEN,
  FIXTURE_TOLOKA_TOKEN,
  FUZZ_TOLOKA_TOKEN,
  type FuzzApp,
  fixtureOf,
  ok,
} from './openapi-fuzz.ts';
import { insertProcessedRespondent } from './report-rows.ts';
import { insertEventLog, insertRecording, insertRespondentSession, insertVideoProcess } from './respondent-rows.ts';

/**
 * The OpenAPI fuzz's objects for the `/api` operations (openapi-fuzz.test.ts): a fresh set of a project's objects for
 * an operation, the setups some operations need on top of it, and the values a valid body must carry to pass.
 */

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
export type Resource = (typeof RESOURCE_OF_SEGMENT)[keyof typeof RESOURCE_OF_SEGMENT];
const TABLE_OF = {
  project: 'projects',
  research: 'campaigns',
  scenario: 'scenarios',
  survey: 'surveys',
  selfServiceTest: 'self_service_tests',
} as const;

/**
 * The fixture sets of the `/api` operations and their setups, on the file's fuzz app (`fuzz()`, made before its
 * tests).
 */
export function apiFixtures(fuzz: () => FuzzApp) {
  /**
   * A fresh set of objects for one operation: a draft project, a pictures research with a picture, a scenario, a quota
   * link, a respondent session with a recording and a video process, an unlinked questionnaire.
   */
  async function fixtures(): Promise<Record<Resource, string>> {
    const { t, alice, carol, png, bobPublicId } = fuzz();
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
    const surveyRes = await alice.request('POST', '/api/cabinet/surveys/', {
      body: { type: 'survey', title: 'After' },
    });
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
    const { t } = fuzz();
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
    const { alice } = fuzz();
    await withTolokaProject(fx);
    await ok(
      await alice.request('POST', `/api/cabinet/campaigns/${fx.research}/toloka/`, {
        body: { title: 'Fuzz pool', reward: 0.5 },
      }),
      'Toloka pool',
    );
  }

  /** The research's project as a launched project of `platform`, with alice's `token` for it active. */
  async function withPanelProject(
    fx: Record<Resource, string>,
    platform: 'prolific' | 'amazon',
    token: { path: string; body: unknown; what: string },
  ) {
    const { t, alice } = fuzz();
    await withTolokaProject(fx);
    await t.app.ctx.database.db.updateTable('projects').set({ platform }).where('id', '=', fx.project).execute();
    await ok(await alice.request('POST', token.path, { body: token.body }), token.what);
  }

  /**
   * The research's project as a launched Prolific project, alice's Prolific token active; with `study`, its study
   * made.
   */
  async function withProlificProject(fx: Record<Resource, string>, study: boolean) {
    const { alice } = fuzz();
    await withPanelProject(fx, 'prolific', {
      path: '/api/cabinet/recruiting-tokens/prolific/',
      body: { description: 'Fuzz', token: FIXTURE_PROLIFIC_TOKEN },
      what: 'Prolific token',
    });
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
    const { alice } = fuzz();
    await withPanelProject(fx, 'amazon', {
      path: '/api/cabinet/recruiting-tokens/mturk/',
      body: {
        description: 'Fuzz MTurk',
        access_key_id: CONTRACT_ACCESS_KEY_ID,
        secret_access_key: CONTRACT_SECRET_ACCESS_KEY,
        environment: 'sandbox',
      },
      what: 'MTurk keys',
    });
    if (hit) {
      await ok(
        await alice.request('POST', `/api/cabinet/campaigns/${fx.research}/mturk/`, {
          body: { title: 'Fuzz HIT', description: 'Fuzz', reward: 0.5 },
        }),
        'MTurk HIT',
      );
    }
  }

  /**
   * The research as a website prototype whose respondent ran its second task (the sampled body's task 1): a run to
   * mark.
   */
  async function withTaskRun(fx: Record<Resource, string>) {
    const { t } = fuzz();
    const db = t.app.ctx.database.db;
    await db.updateTable('campaigns').set({ content_type: 'site' }).where('id', '=', fx.research).execute();
    await insertEventLog(t.app, fx.session, [
      { type: 'research_start', t: 1000, campaign_id: fx.research, index: 0 },
      { type: 'task_shown', t: 2000, task: 1 },
      { type: 'task_result', t: 3000, task: 1, result: 'success' },
    ]);
  }

  /** Values for properties that must name existing objects or the current version to pass. */
  async function known(op: Operation, fx: Record<Resource, string>): Promise<Known> {
    const { t, bobPublicId } = fuzz();
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

  return { fixtures, withTolokaProject, withTolokaPool, withProlificProject, withMturkProject, withTaskRun, known };
}

export const resourceOf = (op: Operation, param: string): Resource => fixtureOf(RESOURCE_OF_SEGMENT, op, param);

/** Operations that need more than a fresh set of objects: each has a setup of its own (`apiFixtures`'s `with…`). */
const OWN_SETUP = [
  /\/task-marks\/$/,
  /\/toloka\/$/,
  /\/toloka\/(acceptance|decisions\/confirm)\/$/,
  /\/self-service\/\{id\}\/moderation\/$/,
  /\/campaigns\/\{id\}\/mturk\//,
  /\/campaigns\/\{id\}\/prolific\//,
];
/** A read with no setup of its own changes nothing: the reads share one set of objects (about 0.4 s of CPU each). */
export const sharedRead = (op: Operation) => op.method === 'GET' && !OWN_SETUP.some((re) => re.test(op.path));
