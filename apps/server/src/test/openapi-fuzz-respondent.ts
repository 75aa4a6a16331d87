import { createHash } from 'node:crypto';
import { CONSENT_POLICY_VERSION, DOT_TEST_LIMITS } from '@emolens/contracts';
import { insertMedia, markLaunched } from './harness.ts';
import { type Operation, sample } from './openapi.ts';
import { type FuzzApp, fixtureOf, ok } from './openapi-fuzz.ts';
import {
  createQuestionnaire,
  journeyEvents,
  launchedLink,
  linkQuestionnaires,
  type RespondentClient,
  respondentClient,
  TINY_WEBM,
} from './respondent.ts';

/**
 * The OpenAPI fuzz's objects for the respondent API, `/r` (openapi-fuzz.test.ts): anonymous, reached with a link's
 * token or a session's secret. A fresh running session for each operation, and the valid bodies a sample cannot make.
 */

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

/** The respondent API's fixture sets, on the file's fuzz app (`fuzz()`, made before its tests). */
export function respondentApiFixtures(fuzz: () => FuzzApp) {
  /**
   * A launched project on a panel without its own consent; a running session that recorded a chunk and logged its
   * journey.
   */
  async function respondentFixtures(): Promise<{
    values: Record<RespondentFixture, string>;
    client: RespondentClient;
    dotTestSecret: string;
  }> {
    const { t, alice } = fuzz();
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

  return { respondentFixtures };
}

export const respondentParamOf = (op: Operation, param: string): RespondentFixture =>
  fixtureOf(RESPONDENT_PARAM_OF_SEGMENT, op, param);

/**
 * Valid bodies of the respondent operations whose rules a minimal sample cannot meet (the consent's
 * policy version, event times on the session clock, the batch number next expected); others are sampled.
 */
const dotTestStartBody = () => ({
  consent: { accepted: true, retention_days: DOT_TEST_LIMITS.retentionDays, language: 'en' },
  screen: { width: 1280, height: 800, device_pixel_ratio: 1 },
  mime_type: 'video/webm',
});

export function respondentBody(op: Operation): unknown {
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
