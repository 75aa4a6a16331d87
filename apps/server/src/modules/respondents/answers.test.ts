import { RESPONDENT_LIMITS, type SessionState } from '@emolens/contracts';
import { sql } from 'kysely';
import { beforeEach, describe, expect, it } from 'vitest';
import { type Client, loggedIn, markLaunched, TEST_BACKEND } from '../../test/harness.ts';
import { appWithFilesPerFile } from '../../test/per-file.ts';
import { afterTheVideoSurvey } from '../../test/questionnaires.ts';
import {
  everyLanguage,
  linkWithQuestionnaires,
  type RespondentClient,
  recordJourney,
  respondentClient,
  WHO_WATCHES_SCREENER,
  webmChunks,
} from '../../test/respondent.ts';
import { respondentSessionRow } from '../../test/respondent-rows.ts';
import { screenerSample } from './answers.ts';
import { verifyCompletionCode } from './completion-code.ts';

/**
 * The questionnaire runtime (issue 12, decision 014) through the respondent API: the questionnaires in the
 * session state, answers checked and saved as the respondent goes, the screener's verdict (dropout, answer
 * quotas under parallel respondents), the survey before the completion, and previews that store nothing.
 */
const t = appWithFilesPerFile('answers-test');
let alice: Client;
beforeEach(async () => {
  ({ alice } = await loggedIn(t.app, 'alice'));
});

const db = () => t.app.ctx.database.db;
const sessionRow = (id: string) => respondentSessionRow(t.app, id);
const storedAnswers = () => db().selectFrom('respondent_answers').selectAll().orderBy('slot').execute();

const text = everyLanguage;

const SCREENER = WHO_WATCHES_SCREENER;
const PASS_M = { tv: { choices: ['yes'] }, sex: { choices: ['m'] } };
const PASS_F = { tv: { choices: ['yes'] }, sex: { choices: ['f'] } };
const DROPOUT = { tv: { choices: ['no'] }, sex: { choices: ['f'] } };

/** A survey with a question of every kind, one shown only for brand b. */
const SURVEY = afterTheVideoSurvey({
  whyRequired: true,
  age: { min: 18, max: 99 },
  grid: { rows: { r1: 'Row' }, options: ['c1', 'c2'] },
});
const SURVEY_DONE = { like: { number: 4 }, brand: { choices: ['a'] }, uses: { choices: ['x', 'y'] } };

/** A project with a scenario whose slots hold these questionnaires; launched unless told otherwise. */
const withQuestionnaires = (
  options: { screener?: object | null; survey?: object | null; quota?: number | null; launch?: boolean } = {},
) =>
  linkWithQuestionnaires(t.app, alice, {
    ...options,
    screener: options.screener === undefined ? SCREENER : options.screener,
    survey: options.survey === undefined ? SURVEY : options.survey,
  });

async function started(token: string): Promise<RespondentClient> {
  const client = respondentClient(t.app);
  const res = await client.start(token);
  expect(res.statusCode, res.body).toBe(201);
  return client;
}

async function state(client: RespondentClient): Promise<SessionState> {
  const res = await client.state();
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

describe('the session state', () => {
  it('carries the enabled questionnaires with their questions, the answers so far and screener_first', async () => {
    const setup = await withQuestionnaires();
    await db()
      .updateTable('project_accessor_links')
      .set({ is_screener_first: true })
      .where('id', '=', setup.linkId)
      .execute();
    const client = await started(setup.token);
    const session = client.session as SessionState;
    expect(session.screener_first).toBe(true);
    expect(session.screener).toEqual({ ran: false });
    expect(session.surveys.screener).toMatchObject({ id: setup.screener, type: 'screener', answers: {}, done: false });
    expect(session.surveys.screener?.questions.map((q) => q.id)).toEqual(['tv', 'sex']);
    // Texts in every language: the page picks the session's.
    expect(session.surveys.screener?.questions[0]?.text).toEqual(text('Do you watch TV?'));
    expect(session.surveys.survey).toMatchObject({ id: setup.survey, type: 'survey', answers: {}, done: false });
    expect(session.surveys.survey?.questions).toHaveLength(7);
  });

  it('skips a disabled questionnaire as if the slot were empty', async () => {
    const setup = await withQuestionnaires({ launch: false });
    const screener = (await alice.request('GET', `/api/cabinet/surveys/${setup.screener}/`)).json();
    const disabled = await alice.request('PATCH', `/api/cabinet/surveys/${setup.screener}/`, {
      body: { title: screener.title, enabled: false, questions: screener.questions, updated_at: screener.updated_at },
    });
    expect(disabled.statusCode, disabled.body).toBe(200);
    await markLaunched(t.app, setup.projectId);
    const client = await started(setup.token);
    expect(client.session?.surveys.screener).toBeNull();
    expect(client.session?.surveys.survey).not.toBeNull();
    const refused = await client.answers('screener', PASS_M, true);
    expect(refused.statusCode).toBe(404);
    expect(refused.json().key).toBe('survey.notFound');
    // The survey does not wait for a screener that does not run, and the completion waits for no screener.
    const journey = await recordJourney(client);
    expect((await client.answers('survey', SURVEY_DONE, true)).statusCode).toBe(200);
    const done = await client.complete(journey.segments, journey.batches);
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json().outcome).toBe('complete');
    expect((await sessionRow(client.sessionId)).screener_ran).toBe(false);
  });

  it('is null for empty slots, and a slot with no questionnaire takes no answers', async () => {
    const setup = await withQuestionnaires({ screener: null, survey: null });
    const client = await started(setup.token);
    expect(client.session?.surveys).toEqual({ screener: null, survey: null });
    expect(client.session?.screener_first).toBe(false);
    const res = await client.answers('survey', SURVEY_DONE, true);
    expect(res.statusCode).toBe(404);
    expect(res.json().key).toBe('survey.notFound');
    const bad = await client.request('PUT', `/r/sessions/${client.sessionId}/surveys/other/answers`, {
      body: { answers: {}, final: false },
    });
    expect(bad.statusCode).toBe(400);
  });
});

describe('answers', () => {
  it('are checked against the questionnaire, with a message per question, and nothing is stored', async () => {
    const setup = await withQuestionnaires();
    const client = await started(setup.token);
    expect((await client.answers('screener', PASS_M, true)).statusCode).toBe(200);
    const cases: [string, Record<string, unknown>, boolean, Record<string, unknown>][] = [
      ['unknown question', { nope: { choices: ['a'] } }, false, { 'answers.nope': { key: 'survey.unknownQuestion' } }],
      [
        'hidden question',
        { brand: { choices: ['a'] }, why: { text: 'because' } },
        false,
        { 'answers.why': { key: 'survey.hiddenQuestion' } },
      ],
      ['wrong type', { like: { text: 'five' } }, false, { 'answers.like': { key: 'validation.invalid' } }],
      [
        'out of range',
        { like: { number: 9 }, age: { number: 12 } },
        false,
        {
          'answers.like': { key: 'validation.between', params: { first: 1, second: 5 } },
          'answers.age': { key: 'validation.between', params: { first: 18, second: 99 } },
        },
      ],
      ['not a whole step', { like: { number: 2.5 } }, false, { 'answers.like': { key: 'validation.wholeNumber' } }],
      ['unknown option', { brand: { choices: ['zzz'] } }, false, { 'answers.brand': { key: 'validation.choice' } }],
      [
        'other without text',
        { brand: { choices: ['other'] } },
        false,
        { 'answers.brand': { key: 'survey.otherText' } },
      ],
      ['an information block', { intro: { text: 'hi' } }, false, { 'answers.intro': { key: 'validation.invalid' } }],
      [
        'required on final',
        { brand: { choices: ['b'] } },
        true,
        {
          'answers.like': { key: 'validation.required' },
          'answers.why': { key: 'validation.required' },
        },
      ],
    ];
    for (const [what, answers, final, fields] of cases) {
      const res = await client.answers('survey', answers, final);
      expect(res.statusCode, `${what}: ${res.body}`).toBe(400);
      expect(res.json().code, what).toBe('validation_failed');
      expect(res.json().field_keys, what).toEqual(fields);
    }
    // The respondent schema is strict and small: unknown fields, and a 100 KB text.
    const unknownField = await client.request('PUT', `/r/sessions/${client.sessionId}/surveys/survey/answers`, {
      body: { answers: {}, final: false, extra: 1 },
    });
    expect(unknownField.statusCode).toBe(400);
    expect(unknownField.json().code).toBe('unknown_fields');
    const huge = await client.answers('survey', { brand: { choices: ['b'] }, why: { text: 'x'.repeat(100_000) } });
    expect(huge.statusCode, huge.body).toBe(400);
    // The respondent schema's own message, under the question (and the answer's field).
    expect(huge.json().field_keys).toEqual({
      'answers.why.text': { key: 'validation.maxChars', params: { max: 5000 } },
    });
    const tooLarge = await client.answers('survey', { why: { text: 'x'.repeat(2_000_000) } });
    expect(tooLarge.statusCode).toBe(413);
    // Only the screener's answers are stored: none of the refused ones.
    expect((await storedAnswers()).map((a) => a.slot)).toEqual(['screener']);
  });

  it('are saved as the respondent goes, replaced whole, and a reload gets them back', async () => {
    const setup = await withQuestionnaires();
    const client = await started(setup.token);
    const first = await client.answers('screener', { tv: { choices: ['yes'] } });
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toEqual({ slot: 'screener', stored: true, done: false, end: null });
    // Saving the same again is harmless; a later save replaces the answers whole.
    expect((await client.answers('screener', { tv: { choices: ['yes'] } })).statusCode).toBe(200);
    expect((await client.answers('screener', { sex: { choices: ['f'] } })).statusCode).toBe(200);
    let reloaded = await state(client);
    expect(reloaded.surveys.screener).toMatchObject({ answers: { sex: { choices: ['f'] } }, done: false });
    expect(reloaded.screener.ran).toBe(false);
    expect(await storedAnswers()).toHaveLength(1);

    const final = await client.answers('screener', PASS_F, true);
    expect(final.statusCode, final.body).toBe(200);
    expect(final.json()).toEqual({ slot: 'screener', stored: true, done: true, end: null });
    reloaded = await state(client);
    expect(reloaded.surveys.screener).toMatchObject({ answers: PASS_F, done: true });
    expect(reloaded.screener.ran).toBe(true);
    expect(reloaded.status).toBe('started');

    // The form submits once: the same answers again (a lost response) answer the same; others are refused.
    const repeat = await client.answers('screener', { sex: { choices: ['f'] }, tv: { choices: ['yes'] } }, true);
    expect(repeat.statusCode, repeat.body).toBe(200);
    expect(repeat.json()).toEqual({ slot: 'screener', stored: false, done: true, end: null });
    const changed = await client.answers('screener', PASS_M, true);
    expect(changed.statusCode).toBe(409);
    expect(changed.json()).toMatchObject({ code: 'conflict', key: 'survey.answersSent' });
    const lateAutosave = await client.answers('screener', { tv: { choices: ['yes'] } });
    expect(lateAutosave.statusCode).toBe(409);
    const row = await db().selectFrom('respondent_answers').selectAll().executeTakeFirstOrThrow();
    expect(row).toMatchObject({
      session_id: client.sessionId,
      slot: 'screener',
      survey_id: setup.screener,
      done: true,
    });
    expect(row.answers).toEqual(PASS_F);
  });

  it('are refused once the session has ended', async () => {
    const setup = await withQuestionnaires();
    const client = await started(setup.token);
    expect((await client.answers('screener', { tv: { choices: ['yes'] } })).statusCode).toBe(200);
    expect((await client.leave()).statusCode).toBe(200);
    const res = await client.answers('screener', PASS_M);
    expect(res.statusCode).toBe(409);
    expect(res.json().key).toBe('respondent.sessionEnded');
    expect((await storedAnswers())[0]?.answers).toEqual({ tv: { choices: ['yes'] } });
  });
});

describe('the screener', () => {
  it('ends a dropout screened out before the content, with the screen-out end; nothing is recorded after', async () => {
    const setup = await withQuestionnaires();
    const client = await started(setup.token);
    // The screener after the calibration: the recording has started.
    const [chunk0, chunk1] = webmChunks(2) as [Buffer, Buffer];
    expect((await client.segment()).statusCode).toBe(201);
    expect((await client.chunk(0, 0, chunk0)).statusCode).toBe(201);
    const res = await client.answers('screener', DROPOUT, true);
    expect(res.statusCode, res.body).toBe(200);
    const { end } = res.json();
    expect(end).toMatchObject({ outcome: 'screen_out', redirect_url: null, mturk: null });
    expect(end.code).toMatch(/^[2-9A-HJKMNP-Z]{7}-[2-9A-HJKMNP-Z]{7}$/);
    expect(await verifyCompletionCode(t.app.ctx.secret, end.token)).toMatchObject({
      valid: true,
      claims: { sid: client.sessionId, outcome: 'screen_out' },
    });
    const row = await sessionRow(client.sessionId);
    expect(row).toMatchObject({
      status: 'screened_out',
      outcome: 'screen_out',
      step: 'end',
      screener_ran: true,
      quota_state: null,
    });
    expect(row.ended_at).not.toBeNull();
    // Nothing is recorded afterwards; a reload shows the end; the submit repeated answers the same end.
    const segment = await client.segment();
    expect(segment.statusCode).toBe(409);
    expect(segment.json().key).toBe('respondent.sessionEnded');
    const chunk = await client.chunk(0, 1, chunk1);
    expect(chunk.statusCode).toBe(409);
    expect(chunk.json().key).toBe('respondent.sessionEnded');
    expect(await db().selectFrom('recording_chunks').selectAll().execute()).toHaveLength(1);
    expect(await db().selectFrom('video_processes').selectAll().execute()).toHaveLength(0);
    const reloaded = await state(client);
    expect(reloaded).toMatchObject({ status: 'screened_out', end, screener: { ran: true } });
    const repeat = await client.answers('screener', DROPOUT, true);
    expect(repeat.statusCode).toBe(200);
    expect(repeat.json()).toEqual({ slot: 'screener', stored: false, done: true, end });
    expect((await client.answers('survey', SURVEY_DONE, true)).json().key).toBe('respondent.sessionEnded');
  });

  it("sends a screened-out Cint respondent to the research's screen-out redirect", async () => {
    const setup = await withQuestionnaires();
    await sql`update campaigns set settings = settings || ${JSON.stringify({
      cint_options: { complete: '', quota_full: '', screen_out: 'https://panel.example/so?x=1' },
    })}::jsonb where id = ${setup.researchIds[0]}`.execute(db());
    const client = respondentClient(t.app);
    expect((await client.start(setup.token, { panel: { RID: 'rid-7' } })).statusCode).toBe(201);
    const res = await client.answers('screener', DROPOUT, true);
    expect(res.json().end).toEqual({
      outcome: 'screen_out',
      code: null,
      // The signed token goes with every end, for integrations (ends.ts); the browser is sent on, no code shown.
      token: expect.stringMatching(/^[\w-]+\.[\w-]+\.[\w-]+$/),
      redirect_url: 'https://panel.example/so?x=1&RID=rid-7',
      mturk: null,
    });
  });

  it('lets a pass on: the survey and the completion wait for the screener, the completion for the survey', async () => {
    const setup = await withQuestionnaires();
    const client = await started(setup.token);
    const journey = await recordJourney(client);
    const early = await client.answers('survey', SURVEY_DONE);
    expect(early.statusCode).toBe(409);
    expect(early.json().key).toBe('respondent.screenerNotAnswered');
    const noScreener = await client.complete(journey.segments, journey.batches);
    expect(noScreener.statusCode).toBe(409);
    expect(noScreener.json().key).toBe('respondent.screenerNotAnswered');

    expect((await client.answers('screener', PASS_M, true)).json()).toMatchObject({ done: true, end: null });
    expect((await client.answers('survey', { like: { number: 2 } })).statusCode).toBe(200);
    const noSurvey = await client.complete(journey.segments, journey.batches);
    expect(noSurvey.statusCode).toBe(409);
    expect(noSurvey.json().key).toBe('respondent.surveyNotAnswered');
    expect((await sessionRow(client.sessionId)).status).toBe('started');

    const survey = await client.answers(
      'survey',
      { ...SURVEY_DONE, brand: { choices: ['b'] }, why: { text: 'ok' } },
      true,
    );
    expect(survey.statusCode, survey.body).toBe(200);
    expect(survey.json()).toEqual({ slot: 'survey', stored: true, done: true, end: null });
    const done = await client.complete(journey.segments, journey.batches);
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json().outcome).toBe('complete');
    const reloaded = await state(client);
    expect(reloaded.surveys.survey).toMatchObject({ done: true, answers: { why: { text: 'ok' } } });
    // A repeat of the survey's submit after the completion answers with the session's end.
    const repeat = await client.answers(
      'survey',
      { ...SURVEY_DONE, brand: { choices: ['b'] }, why: { text: 'ok' } },
      true,
    );
    expect(repeat.json()).toMatchObject({ stored: false, done: true, end: { outcome: 'complete' } });
  });

  it(`holds an answer quota under 30 parallel respondents: 50/50 of a sample of 2 lets exactly 1 pass (${TEST_BACKEND})`, async () => {
    const setup = await withQuestionnaires({ quota: 2 });
    const clients = await Promise.all(Array.from({ length: 30 }, () => started(setup.token)));
    const answers = await Promise.all(clients.map((c) => c.answers('screener', PASS_M, true)));
    for (const res of answers) expect(res.statusCode, res.body).toBe(200);
    const ends = answers.map((res) => res.json().end?.outcome ?? 'pass');
    expect(ends.filter((e) => e === 'pass')).toHaveLength(1);
    expect(ends.filter((e) => e === 'screen_out')).toHaveLength(29);
    const places = await db().selectFrom('respondent_quota_places').selectAll().execute();
    expect(places).toHaveLength(1);
    expect(places[0]).toMatchObject({ scenario_id: setup.scenarioId, question_id: 'sex', option_id: 'm' });
    const statuses = await db().selectFrom('respondent_sessions').select('status').execute();
    expect(statuses.filter((s) => s.status === 'screened_out')).toHaveLength(29);

    // The other option still has its place.
    const woman = await started(setup.token);
    expect((await woman.answers('screener', PASS_F, true)).json().end).toBeNull();
    // The place is held while the respondent runs, and frees when they leave without completing.
    const passed = clients[answers.findIndex((res) => res.json().end === null)] as RespondentClient;
    const waiting = await started(setup.token);
    expect((await waiting.answers('screener', PASS_M)).statusCode).toBe(200);
    expect((await passed.leave()).statusCode).toBe(200);
    const second = await waiting.answers('screener', PASS_M, true);
    expect(second.json().end, second.body).toBeNull();
  });

  it('counts a completion holding its quota slot, frees a released one and a quiet session', async () => {
    const setup = await withQuestionnaires({ quota: 2, survey: null });
    const first = await started(setup.token);
    expect((await first.answers('screener', PASS_M, true)).json().end).toBeNull();
    const journey = await recordJourney(first);
    expect((await first.complete(journey.segments, journey.batches)).json().outcome).toBe('complete');

    // Completed and pending: the place is held.
    const held = await started(setup.token);
    expect((await held.answers('screener', PASS_M, true)).json().end?.outcome).toBe('screen_out');
    // Processing releases the completion (excluded by quality): the place frees.
    await db()
      .updateTable('respondent_sessions')
      .set({ quota_state: 'released' })
      .where('id', '=', first.sessionId)
      .execute();
    const next = await started(setup.token);
    expect((await next.answers('screener', PASS_M, true)).json().end).toBeNull();
    // A started session quiet for longer than a drop-out takes counts as dropped out: its place frees too.
    const quiet = new Date(Date.now() - (RESPONDENT_LIMITS.dropOutAfterMinutes + 1) * 60_000);
    await db()
      .updateTable('respondent_sessions')
      .set({ last_seen_at: quiet })
      .where('id', '=', next.sessionId)
      .execute();
    const after = await started(setup.token);
    expect((await after.answers('screener', PASS_M, true)).json().end).toBeNull();
  });

  it('passes every quota option when there is no sample to take shares of', async () => {
    const setup = await withQuestionnaires({ survey: null });
    for (let i = 0; i < 3; i++) {
      const client = await started(setup.token);
      expect((await client.answers('screener', PASS_M, true)).json().end).toBeNull();
    }
    expect(await db().selectFrom('respondent_quota_places').selectAll().execute()).toHaveLength(3);
  });

  it("takes the sample from the scenario's quota, else its links' quota sizes, else the project's required number", () => {
    const sample = (scenario_quota: number | null, link_quotas: (number | null)[], required: number | null) =>
      screenerSample({ scenario_quota, link_quotas, required_respondents: required });
    expect(sample(10, [5, 7], 100)).toBe(10);
    expect(sample(null, [5, 7], 100)).toBe(12);
    expect(sample(null, [5, null], 100)).toBe(100);
    expect(sample(null, [], 100)).toBe(100);
    expect(sample(null, [null], null)).toBeNull();
    expect(sample(null, [], 0)).toBeNull();
  });
});

describe('a preview', () => {
  it('checks and answers, stores nothing, counts no quota, and shows the screen-out end', async () => {
    const setup = await withQuestionnaires({ quota: 2, launch: false });
    const client = await started(setup.token);
    expect(client.session?.preview).toBe(true);
    const bad = await client.answers('screener', { nope: { choices: ['x'] } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().field_keys).toEqual({ 'answers.nope': { key: 'survey.unknownQuestion' } });
    const saved = await client.answers('screener', { tv: { choices: ['yes'] } });
    expect(saved.json()).toEqual({ slot: 'screener', stored: false, done: false, end: null });
    // Two previews pass on the same full option: a preview takes no place.
    for (let i = 0; i < 2; i++) {
      const other = await started(setup.token);
      expect((await other.answers('screener', PASS_M, true)).json()).toEqual({
        slot: 'screener',
        stored: false,
        done: true,
        end: null,
      });
    }
    const survey = await client.answers('survey', SURVEY_DONE, true);
    expect(survey.json()).toEqual({ slot: 'survey', stored: false, done: true, end: null });
    const out = await client.answers('screener', DROPOUT, true);
    expect(out.json().end).toEqual({ outcome: 'screen_out', code: null, token: null, redirect_url: null, mturk: null });
    expect((await sessionRow(client.sessionId)).status).toBe('screened_out');
    expect(await storedAnswers()).toHaveLength(0);
    expect(await db().selectFrom('respondent_quota_places').selectAll().execute()).toHaveLength(0);
    expect((await state(client)).surveys.screener).toMatchObject({ answers: {}, done: false });
  });
});
