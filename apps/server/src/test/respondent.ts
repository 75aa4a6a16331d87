import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  type Answers,
  CONSENT_POLICY_VERSION,
  type PanelParams,
  type RespondentEvent,
  type SessionEnd,
  type SessionState,
  type SurveySlot,
} from '@emolens/contracts';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { type Client, markLaunched } from './harness.ts';
import { type BearerRequestOptions, bearerRequest, type Injector } from './over-http.ts';

/**
 * Driving a respondent through the public API (`/r`), as the respondent page does: for the tests of
 * the respondent side and of everything that needs completed sessions (fieldwork, processing).
 */

/** A real two-second webm (VP8, 64×48, made with ffmpeg's test source): recorder chunks are slices of it. */
export const TINY_WEBM = readFileSync(join(import.meta.dirname, 'fixtures', 'tiny.webm'));

/** The fixture cut in `count` chunks, the first starting with the EBML header as a recorder's does. */
export function webmChunks(count = 3): Buffer[] {
  const size = Math.ceil(TINY_WEBM.length / count);
  return Array.from({ length: count }, (_, i) => TINY_WEBM.subarray(i * size, (i + 1) * size));
}

export const sha256Hex = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

export const SCREEN = { width: 1280, height: 800, device_pixel_ratio: 2 } as const;

export interface StartOptions {
  panel?: PanelParams;
  consent?: { policy_version?: string; panel_consent?: boolean; language?: 'ru' | 'en' | 'id' | 'ko' };
}

/** One respondent's browser: the session id and secret it was given, and requests with them. */
export class RespondentClient {
  sessionId = '';
  secret = '';
  session: SessionState | undefined;

  constructor(
    private readonly app: Injector,
    private readonly options: { address?: string } = {},
  ) {}

  request(
    method: 'GET' | 'POST' | 'PUT',
    url: string,
    options: BearerRequestOptions = {},
  ): Promise<LightMyRequestResponse> {
    return bearerRequest(this.app, { method, url, secret: this.secret, address: this.options.address }, options);
  }

  linkInfo(token: string) {
    return this.request('GET', `/r/links/${token}`, { secret: null });
  }

  /** Consent given: the session starts (its id and secret are kept when it does). */
  async start(token: string, options: StartOptions = {}): Promise<LightMyRequestResponse> {
    const res = await this.request('POST', `/r/links/${token}/sessions`, {
      secret: null,
      body: {
        consent: {
          accepted: true,
          policy_version: options.consent?.policy_version ?? CONSENT_POLICY_VERSION,
          language: options.consent?.language ?? 'en',
          panel_consent: options.consent?.panel_consent ?? true,
        },
        panel: options.panel ?? {},
        screen: SCREEN,
      },
    });
    if (res.statusCode === 201) {
      const body = res.json();
      this.secret = body.secret;
      this.session = body.session;
      this.sessionId = body.session.session_id;
    }
    return res;
  }

  state() {
    return this.request('GET', `/r/sessions/${this.sessionId}`);
  }

  segment(mime_type: 'video/webm' | 'video/mp4' = 'video/webm') {
    return this.request('POST', `/r/sessions/${this.sessionId}/segments`, { body: { mime_type, screen: SCREEN } });
  }

  chunk(segment: number, index: number, bytes: Buffer, sha = sha256Hex(bytes)) {
    return this.request('PUT', `/r/sessions/${this.sessionId}/segments/${segment}/chunks/${index}`, {
      raw: bytes,
      headers: { 'x-chunk-sha256': sha },
    });
  }

  events(seq: number, events: RespondentEvent[]) {
    return this.request('POST', `/r/sessions/${this.sessionId}/events`, { body: { seq, events } });
  }

  complete(segments: { segment: number; chunks: number }[], event_batches: number) {
    return this.request('POST', `/r/sessions/${this.sessionId}/complete`, { body: { segments, event_batches } });
  }

  /** The answers to a questionnaire slot so far, or the final ones. */
  answers(slot: SurveySlot, answers: Answers | Record<string, unknown>, final = false) {
    return this.request('PUT', `/r/sessions/${this.sessionId}/surveys/${slot}/answers`, { body: { answers, final } });
  }

  leave(reason: 'camera_lost' | 'left' | 'orientation' = 'left') {
    return this.request('POST', `/r/sessions/${this.sessionId}/leave`, { body: { reason } });
  }
}

export function respondentClient(app: Injector, options: { address?: string } = {}): RespondentClient {
  return new RespondentClient(app, options);
}

/** The journey's events for a session's researches: calibration, then every research start to end. */
export function journeyEvents(researchIds: string[]): RespondentEvent[] {
  const events: RespondentEvent[] = [
    { type: 'segment_start', t: 0, segment: 0 },
    { type: 'step', t: 1, step: 'calibration' },
    { type: 'calibration_start', t: 2 },
    { type: 'calibration_dot', t: 3, x: 100, y: 100 },
    { type: 'calibration_end', t: 4 },
    { type: 'step', t: 5, step: 'content' },
  ];
  let t = 6;
  for (const [index, campaign_id] of researchIds.entries()) {
    events.push({ type: 'research_start', t: t++, campaign_id, index });
    events.push({ type: 'research_end', t: t++, campaign_id });
  }
  events.push({ type: 'step', t: t++, step: 'end' });
  return events;
}

/**
 * The events of a recording of `seconds` that the engine can process: the screen, a short calibration, then the
 * research shown from 0.3 s to 0.3 s before the end.
 */
export function recordingJourney(researchId: string, seconds: number): RespondentEvent[] {
  return [
    { type: 'segment_start', t: 0, segment: 0 },
    { type: 'screen', t: 0, width: 1280, height: 800, device_pixel_ratio: 1 },
    { type: 'step', t: 10, step: 'calibration' },
    { type: 'calibration_start', t: 20 },
    { type: 'calibration_dot', t: 30, x: 100, y: 100 },
    { type: 'calibration_end', t: 200 },
    { type: 'step', t: 250, step: 'content' },
    { type: 'research_start', t: 300, campaign_id: researchId, index: 0 },
    { type: 'research_end', t: seconds * 1000 - 300, campaign_id: researchId },
    { type: 'step', t: seconds * 1000 - 200, step: 'end' },
  ];
}

/**
 * A respondent from consent to the end through the API: start, one segment of webm chunks, the
 * journey's events, complete. Throws when a step is refused (the answer in the message).
 */
export async function completeRespondent(
  app: FastifyInstance,
  token: string,
  options: StartOptions & { address?: string; chunks?: number } = {},
): Promise<{ client: RespondentClient; end: SessionEnd; status: number }> {
  const client = respondentClient(app, { address: options.address });
  const started = await client.start(token, options);
  if (started.statusCode !== 201) throw new Error(`session not started: ${started.statusCode} ${started.body}`);
  const session = client.session as SessionState;
  if (session.end) return { client, end: session.end, status: 201 };
  if (session.preview) {
    const done = await client.complete([{ segment: 0, chunks: 1 }], 1);
    if (done.statusCode !== 200) throw new Error(`preview not completed: ${done.statusCode} ${done.body}`);
    return { client, end: done.json(), status: done.statusCode };
  }
  const journey = await recordJourney(client, options.chunks ?? 3);
  const done = await client.complete(journey.segments, journey.batches);
  if (done.statusCode !== 200) throw new Error(`not completed: ${done.statusCode} ${done.body}`);
  return { client, end: done.json(), status: done.statusCode };
}

/** A launched project of the client's user with one scenario and quota link: their ids and the link's token. */
export async function launchedLink(
  app: FastifyInstance,
  client: Client,
  options: { flow?: 'new' | 'old'; launch?: boolean } = {},
): Promise<{ projectId: string; scenarioId: string; linkId: string; token: string; researchIds: string[] }> {
  const projectId = await client.draftProject(options.flow ?? 'new');
  const scenarioId = await client.readyToLaunch(projectId);
  if (options.launch !== false) await markLaunched(app, projectId);
  const db = app.ctx.database.db;
  const link = await db
    .selectFrom('project_accessor_links')
    .select(['id', 'token'])
    .where('scenario_id', '=', scenarioId)
    .executeTakeFirstOrThrow();
  const researches = await db
    .selectFrom('scenario_campaigns')
    .select('campaign_id')
    .where('scenario_id', '=', scenarioId)
    .orderBy('position')
    .execute();
  return {
    projectId,
    scenarioId,
    linkId: link.id,
    token: link.token,
    researchIds: researches.map((c) => c.campaign_id),
  };
}

/**
 * A launched project made through the API of an installation the test reaches only over HTTP (one contentless
 * research, a quota link, the scenario's quota when given); `markLaunched` sets it active in the database, past the
 * launch rules. Its link's token and its research.
 */
export async function launchedOverHttp(
  client: Client,
  markLaunched: (projectId: string) => Promise<unknown>,
  quota?: number,
): Promise<{ projectId: string; token: string; researchId: string }> {
  const projectId = await client.draftProject();
  const scenarioId = await client.readyToLaunch(projectId);
  if (quota !== undefined) {
    const scenarios = (await client.request('GET', `/api/cabinet/projects/${projectId}/scenarios/`)).json();
    const patched = await client.request('PATCH', `/api/cabinet/scenarios/${scenarioId}/`, {
      body: { quota, updated_at: scenarios.items[0].updated_at },
    });
    if (patched.statusCode !== 200) throw new Error(`quota not set: ${patched.statusCode} ${patched.body}`);
  }
  await markLaunched(projectId);
  const links = (await client.request('GET', `/api/cabinet/projects/${projectId}/project-accessor-links/`)).json();
  const researches = (await client.request('GET', `/api/cabinet/campaigns/?project_id=${projectId}`)).json();
  return { projectId, token: links.items[0].token, researchId: researches.items[0].id };
}

/** A questionnaire text in every respondent language (the English one given, the others derived from it). */
export const everyLanguage = (en: string) => ({ ru: `ru ${en}`, en, id: `id ${en}`, ko: `ko ${en}` });
/** A questionnaire option with its text in every language, plus any rule fields. */
export const questionnaireOption = (id: string, extra: object = {}) => ({ id, text: everyLanguage(id), ...extra });

/** A screener: a dropout question ("no" screens out) and a 50/50 quota question. */
export const WHO_WATCHES_SCREENER = {
  type: 'screener',
  title: 'Who watches',
  questions: [
    {
      id: 'tv',
      type: 'single',
      text: everyLanguage('Do you watch TV?'),
      required: true,
      options: [questionnaireOption('yes'), questionnaireOption('no', { rule: 'dropout' })],
    },
    {
      id: 'sex',
      type: 'single',
      text: everyLanguage('Sex'),
      required: true,
      profile: 'sex',
      options: [
        questionnaireOption('m', { rule: 'quota', share: 50, sex: 'man' }),
        questionnaireOption('f', { rule: 'quota', share: 50, sex: 'woman' }),
      ],
    },
  ],
};

/** A questionnaire (screener or survey) of the client's user, made through the cabinet API; its id. */
export async function createQuestionnaire(client: Client, body: object): Promise<string> {
  const res = await client.request('POST', '/api/cabinet/surveys/', { body });
  if (res.statusCode !== 201) throw new Error(`questionnaire not created: ${res.statusCode} ${res.body}`);
  return res.json().id;
}

/** Questionnaires put in a draft scenario's slots (and its quota) through the cabinet API, as the scenario panel does. */
export async function linkQuestionnaires(
  client: Client,
  projectId: string,
  scenarioId: string,
  slots: { screener_survey_id?: string | null; embedded_survey_id?: string | null; quota?: number | null },
): Promise<void> {
  const list = await client.request('GET', `/api/cabinet/projects/${projectId}/scenarios/`);
  const scenario = list.json().items.find((s: { id: string }) => s.id === scenarioId);
  const res = await client.request('PATCH', `/api/cabinet/scenarios/${scenarioId}/`, {
    body: { ...slots, updated_at: scenario?.updated_at },
  });
  if (res.statusCode !== 200) throw new Error(`questionnaires not linked: ${res.statusCode} ${res.body}`);
}

export interface QuestionnaireSetup {
  token: string;
  projectId: string;
  scenarioId: string;
  linkId: string;
  researchIds: string[];
  screener: string | null;
  survey: string | null;
}

/**
 * A project of the client's user whose scenario's slots hold these questionnaires (made through the cabinet API;
 * null: the slot stays empty), with the scenario's quota; launched unless told otherwise.
 */
export async function linkWithQuestionnaires(
  app: FastifyInstance,
  client: Client,
  options: { screener: object | null; survey: object | null; quota?: number | null; launch?: boolean },
): Promise<QuestionnaireSetup> {
  const link = await launchedLink(app, client, { launch: false });
  const screener = options.screener ? await createQuestionnaire(client, options.screener) : null;
  const survey = options.survey ? await createQuestionnaire(client, options.survey) : null;
  await linkQuestionnaires(client, link.projectId, link.scenarioId, {
    screener_survey_id: screener,
    embedded_survey_id: survey,
    quota: options.quota ?? null,
  });
  if (options.launch !== false) await markLaunched(app, link.projectId);
  return { ...link, screener, survey };
}

/**
 * The content part of a journey through the API: a segment of `count` chunks and the event log; what `complete`
 * is told. Throws when a step is refused (the answer in the message).
 */
export async function recordJourney(client: RespondentClient, count = 2) {
  const segment = await client.segment();
  if (segment.statusCode !== 201) throw new Error(`segment not started: ${segment.statusCode} ${segment.body}`);
  const chunks = webmChunks(count);
  for (const [index, bytes] of chunks.entries()) {
    const res = await client.chunk(0, index, bytes);
    if (res.statusCode !== 201) throw new Error(`chunk ${index} not stored: ${res.statusCode} ${res.body}`);
  }
  const researches = client.session?.researches.map((r) => r.campaign_id) ?? [];
  const events = await client.events(0, journeyEvents(researches));
  if (events.statusCode !== 201) throw new Error(`events not stored: ${events.statusCode} ${events.body}`);
  return { segments: [{ segment: 0, chunks: chunks.length }], batches: 1 };
}
