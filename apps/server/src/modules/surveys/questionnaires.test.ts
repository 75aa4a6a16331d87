import { type Language, type Survey, scenarioOutput, surveyListOutput, surveyOutput } from '@emolens/contracts';
import { describe, expect, it } from 'vitest';
import { Client, markLaunched, seedUser, TEST_BACKEND } from '../../test/harness.ts';
import { draftProjectWithResearches } from '../../test/projects.ts';
import { linkQuestionnaires } from '../../test/respondent.ts';
import {
  created,
  fieldKeys,
  option,
  projectIn,
  questionnairesPerFile,
  SCREENER,
  SURVEY,
  text,
  url,
} from './surveys.fixture.ts';

/**
 * Screeners and surveys in the cabinet (issue 12, decision 014): made, read, listed, saved at the version read, copied
 * and deleted; refused with the exact messages when unusable; frozen once a launched project uses them; where each is
 * used and the respondent languages it lacks (which block the launch); out of another customer's reach, not of
 * staff's; handed to a project's new owner.
 */
const { t, my, read, scenario } = questionnairesPerFile();
const projectWithResearches = (client: Client, language: Language, count: number) =>
  draftProjectWithResearches(client, projectIn(language, count));
const patchBody = (survey: Survey, changes: object = {}) => ({
  title: survey.title,
  enabled: survey.enabled,
  questions: survey.questions,
  updated_at: survey.updated_at,
  ...changes,
});

describe(`questionnaires on ${TEST_BACKEND}`, () => {
  it('creates screeners and surveys, reads them whole and lists them by type, newest change first', async () => {
    const screener = await created(my.alice, SCREENER);
    const survey = await created(my.alice, SURVEY);
    expect(screener).toMatchObject({
      type: 'screener',
      title: 'Who watches',
      enabled: true,
      links: [],
      missing_translations: [],
      frozen: false,
      can: { edit: true, delete: true, copy: true },
    });
    // Stored as the editor's schema writes it: defaults filled in.
    expect(screener.questions[0]).toMatchObject({ id: 'tv', random_order: false, other: false, conditions: [] });
    expect(screener.questions[1]?.options.map((o) => [o.rule, o.share])).toEqual([
      ['quota', 50],
      ['quota', 50],
    ]);
    expect(survey.questions.map((q) => q.type)).toEqual([
      'info',
      'scale',
      'single',
      'text',
      'multiple',
      'number',
      'matrix',
    ]);

    const list = surveyListOutput.parse((await my.alice.request('GET', '/api/cabinet/surveys/')).json());
    expect(list.items.map((s) => [s.title, s.question_count])).toEqual([
      ['After the video', 7],
      ['Who watches', 2],
    ]);
    expect(list.items[0]).not.toHaveProperty('questions');
    const screeners = (await my.alice.request('GET', '/api/cabinet/surveys/?type=screener')).json().items;
    expect(screeners.map((s: Survey) => s.id)).toEqual([screener.id]);
    expect((await my.alice.request('GET', '/api/cabinet/surveys/?type=poll')).statusCode).toBe(400);

    expect(await read(survey.id)).toEqual(survey);
    // Spec section 7: the questionnaire whole.
    const whole = await my.alice.request('GET', `/api/surveys-manager/surveys/${survey.id}`);
    expect(whole.statusCode).toBe(200);
    expect(surveyOutput.parse(whole.json())).toEqual(survey);
  });

  it('refuses what makes a questionnaire unusable, with the exact messages', async () => {
    const empty = await my.alice.request('POST', '/api/cabinet/surveys/', { body: { type: 'poll', title: '  ' } });
    expect(empty.statusCode).toBe(400);
    expect(fieldKeys(empty)).toEqual({ type: 'validation.choice', title: 'validation.required' });

    const [tv, sex] = SCREENER.questions;
    const shortQuota = await my.alice.request('POST', '/api/cabinet/surveys/', {
      body: {
        ...SCREENER,
        questions: [
          tv,
          { ...sex, options: [option('m', { rule: 'quota', share: 50 }), option('f', { rule: 'quota', share: 30 })] },
        ],
      },
    });
    expect(shortQuota.statusCode).toBe(400);
    expect(shortQuota.json().field_keys['questions.1.options']).toEqual({
      key: 'survey.quotaSum',
      params: { sum: 80 },
    });
    expect(shortQuota.json().fields['questions.1.options']).toBe(
      'Screener quota shares must add up to at least 100% (now 80%)',
    );

    const broken = await my.alice.request('POST', '/api/cabinet/surveys/', {
      body: {
        type: 'survey',
        title: 'Broken',
        questions: [
          { id: 'q', type: 'single', text: text('One option'), options: [option('a', { rule: 'dropout' })] },
          {
            id: 'q',
            type: 'text',
            text: text('Same id'),
            conditions: [{ question: 'later', operator: 'answered', value: null }],
          },
          { id: 'later', type: 'scale', text: text('Backwards'), min: 5, max: 1 },
        ],
      },
    });
    expect(fieldKeys(broken)).toEqual({
      'questions.0.options': 'survey.optionsTooFew',
      'questions.1.id': 'survey.duplicateId',
      'questions.1.conditions.0.question': 'survey.logicEarlier',
      'questions.2.max': 'survey.scaleRange',
    });
    const unknown = await my.alice.request('POST', '/api/cabinet/surveys/', { body: { ...SURVEY, owner_id: 'me' } });
    expect(unknown.json().code).toBe('unknown_fields');
    expect((await my.alice.request('GET', '/api/cabinet/surveys/')).json().items).toEqual([]);
  });

  it('saves with the stored type at the version read: a stale save answers 409', async () => {
    const survey = await created(my.alice, SURVEY);
    const saved = await my.alice.request('PATCH', url(survey.id), {
      body: patchBody(survey, { title: 'Renamed', enabled: false, questions: survey.questions.slice(0, 3) }),
    });
    expect(saved.statusCode, saved.body).toBe(200);
    const after = surveyOutput.parse(saved.json());
    expect(after).toMatchObject({ title: 'Renamed', enabled: false });
    expect(after.questions).toHaveLength(3);
    expect(after.updated_at > survey.updated_at).toBe(true);

    const stale = await my.alice.request('PATCH', url(survey.id), { body: patchBody(survey, { title: 'Lost edit' }) });
    expect(stale.statusCode).toBe(409);
    expect(stale.json().code).toBe('conflict');
    expect((await read(survey.id)).title).toBe('Renamed');

    // The type stays what it was: screener rules on a survey are refused by the server's own check.
    const rules = await my.alice.request('PATCH', url(survey.id), {
      body: patchBody(after, {
        questions: [{ ...after.questions[2], options: [option('a', { rule: 'quota', share: 100 }), option('b')] }],
      }),
    });
    expect(rules.statusCode).toBe(400);
    expect(fieldKeys(rules)).toEqual({ 'questions.0.options': 'survey.rulesScreenerOnly' });
    const retype = await my.alice.request('PATCH', url(survey.id), { body: patchBody(after, { type: 'screener' }) });
    expect(retype.json()).toMatchObject({
      code: 'unknown_fields',
      field_keys: { type: { key: 'validation.unknownField' } },
    });
    const noVersion = await my.alice.request('PATCH', url(survey.id), {
      body: { title: 'x', enabled: true, questions: [] },
    });
    expect(fieldKeys(noVersion)).toEqual({ updated_at: 'validation.versionRequired' });
    expect(await read(survey.id)).toEqual(after);
  });

  it('copies a questionnaire: same content, no links, " (copy)" within the title limit', async () => {
    const original = await created(my.alice, SCREENER);
    await scenario({ campaign_ids: [my.researchIds[0]], screener_survey_id: original.id });
    const res = await my.alice.request('POST', url(original.id, 'copy'));
    expect(res.statusCode).toBe(201);
    const copy = surveyOutput.parse(res.json());
    expect(copy.id).not.toBe(original.id);
    expect(copy).toMatchObject({
      type: 'screener',
      title: 'Who watches (copy)',
      enabled: true,
      links: [],
      frozen: false,
      can: { edit: true, delete: true, copy: true },
    });
    expect(copy.questions).toEqual(original.questions);

    // Cut by whole characters: an emoji across the cut is dropped whole, never halved.
    const long = await created(my.alice, { ...SURVEY, title: `${'a'.repeat(192)}😀${'b'.repeat(5)}` });
    const longCopy = surveyOutput.parse((await my.alice.request('POST', url(long.id, 'copy'))).json());
    expect(longCopy.title).toBe(`${'a'.repeat(192)} (copy)`);
    const full = await created(my.alice, { ...SURVEY, title: 'c'.repeat(200) });
    const fullCopy = surveyOutput.parse((await my.alice.request('POST', url(full.id, 'copy'))).json());
    expect(fullCopy.title).toBe(`${'c'.repeat(193)} (copy)`);
    expect(fullCopy.title).toHaveLength(200);
  });

  it('deletes only a questionnaire no scenario uses', async () => {
    const screener = await created(my.alice, SCREENER);
    const s = scenarioOutput.parse(
      (await scenario({ campaign_ids: [my.researchIds[0]], screener_survey_id: screener.id })).json(),
    );
    expect((await read(screener.id)).can.delete).toBe(false);
    const refused = await my.alice.request('DELETE', url(screener.id));
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({ code: 'invalid_state', key: 'survey.inUse' });
    // The statement itself refuses too (a link made after the service looked).
    expect(await t.app.ctx.deps.surveys.delete(screener.id)).toBe('linked');
    expect((await read(screener.id)).id).toBe(screener.id);

    const unlinked = await my.alice.request('PATCH', `/api/cabinet/scenarios/${s.id}/`, {
      body: { screener_survey_id: null, updated_at: s.updated_at },
    });
    expect(unlinked.json().screener_survey_id).toBeNull();
    expect((await my.alice.request('DELETE', url(screener.id))).statusCode).toBe(204);
    const gone = await my.alice.request('GET', url(screener.id));
    expect(gone.statusCode).toBe(404);
    expect(gone.json().key).toBe('survey.notFound');
    expect((await my.alice.request('DELETE', url(screener.id))).statusCode).toBe(404);
  });

  it('freezes a questionnaire that a launched project uses: no save, no delete, a copy instead', async () => {
    const survey = await created(my.alice, SURVEY);
    await scenario({ campaign_ids: [my.researchIds[0]], embedded_survey_id: survey.id });
    await markLaunched(t.app, my.projectId);
    const frozen = await read(survey.id);
    expect(frozen).toMatchObject({ frozen: true, can: { edit: false, delete: false, copy: true } });
    expect(frozen.links[0]?.project_status).toBe('active');
    const listed = (await my.alice.request('GET', '/api/cabinet/surveys/')).json().items[0];
    expect(listed).toMatchObject({ frozen: true, can: { edit: false } });

    const save = await my.alice.request('PATCH', url(survey.id), { body: patchBody(frozen, { title: 'Changed' }) });
    expect(save.statusCode).toBe(409);
    expect(save.json()).toMatchObject({
      code: 'invalid_state',
      key: 'survey.frozen',
      message: 'The questionnaire belongs to a launched project: make a copy to change it',
    });
    const del = await my.alice.request('DELETE', url(survey.id));
    expect(del.json()).toMatchObject({ code: 'invalid_state', key: 'survey.frozen' });
    // The write checks it in the same statement, so a launch after the service looked still wins.
    expect(
      await t.app.ctx.deps.surveys.update(survey.id, new Date(frozen.updated_at), {
        title: 'Changed',
        enabled: true,
        questions: [],
      }),
    ).toBe('frozen');
    expect(await read(survey.id)).toEqual(frozen);

    const copy = surveyOutput.parse((await my.alice.request('POST', url(survey.id, 'copy'))).json());
    expect(copy.frozen).toBe(false);
    const edited = await my.alice.request('PATCH', url(copy.id), { body: patchBody(copy, { title: 'Changed' }) });
    expect(edited.statusCode).toBe(200);

    // Completed and archived projects keep it frozen.
    for (const status of ['completed', 'archived'] as const) {
      await t.database.db.updateTable('projects').set({ status }).where('id', '=', my.projectId).execute();
      expect((await read(survey.id)).frozen, status).toBe(true);
    }
  });

  it('lists where it is used and the respondent languages that lack a text', async () => {
    const survey = await created(my.alice, {
      ...SURVEY,
      questions: [{ id: 'like', type: 'scale', text: text('Liked it?', false), min: 1, max: 5 }],
    });
    // Unlinked: no respondent language to check yet.
    expect(survey.missing_translations).toEqual([]);
    const ru = scenarioOutput.parse(
      (await scenario({ campaign_ids: [my.researchIds[0]], embedded_survey_id: survey.id })).json(),
    );
    const en = await projectWithResearches(my.alice, 'en', 1);
    const id = await projectWithResearches(my.alice, 'id', 1);
    const enScenario = scenarioOutput.parse(
      (await scenario({ campaign_ids: en.researchIds, embedded_survey_id: survey.id }, en.projectId)).json(),
    );
    await scenario({ campaign_ids: id.researchIds, embedded_survey_id: survey.id }, id.projectId);
    const linked = await read(survey.id);
    expect(linked.links).toEqual([
      {
        scenario_id: ru.id,
        scenario_order: 1,
        project_id: my.projectId,
        project_title: 'Project ru',
        project_status: 'new',
        slot: 'survey',
      },
      {
        scenario_id: enScenario.id,
        scenario_order: 1,
        project_id: en.projectId,
        project_title: 'Project en',
        project_status: 'new',
        slot: 'survey',
      },
      expect.objectContaining({ project_id: id.projectId, slot: 'survey' }),
    ]);
    expect(linked.missing_translations).toEqual(['ru', 'id']);
    const [question] = linked.questions;
    const translated = await my.alice.request('PATCH', url(survey.id), {
      body: patchBody(linked, { questions: [{ ...question, text: { ...question?.text, ru: 'Понравилось?' } }] }),
    });
    expect(translated.json().missing_translations).toEqual(['id']);
  });

  it("blocks the launch while a questionnaire lacks a text in the respondents' language, and names it", async () => {
    // A project for English-speaking respondents; the question is written in Russian only.
    const en = await my.alice.draftProject();
    const scenarioId = await my.alice.readyToLaunch(en);
    const survey = await created(my.alice, {
      ...SURVEY,
      title: 'Half translated',
      questions: [{ id: 'like', type: 'scale', text: { ru: 'Понравилось?', en: '', id: '', ko: '' }, min: 1, max: 5 }],
    });
    await linkQuestionnaires(my.alice, en, scenarioId, { embedded_survey_id: survey.id });
    const refused = await my.alice.request('POST', `/api/cabinet/projects/${en}/launch/`, { body: {} });
    expect(refused.statusCode, refused.body).toBe(409);
    expect(refused.json().field_keys).toEqual({
      [`surveys.${survey.id}`]: {
        key: 'launch.surveyTranslationMissing',
        params: { title: 'Half translated', language: 'en' },
      },
    });
    const linked = await read(survey.id);
    const [question] = linked.questions;
    const translated = await my.alice.request('PATCH', url(survey.id), {
      body: patchBody(linked, { questions: [{ ...question, text: { ...question?.text, en: 'Liked it?' } }] }),
    });
    expect(translated.statusCode, translated.body).toBe(200);
    const launched = await my.alice.request('POST', `/api/cabinet/projects/${en}/launch/`, { body: {} });
    expect(launched.statusCode, launched.body).toBe(200);
  });

  it("keeps another customer's questionnaires out of reach; staff reach every one", async () => {
    const survey = await created(my.alice, SURVEY);
    const attempts = await Promise.all([
      my.bob.request('GET', url(survey.id)),
      my.bob.request('PATCH', url(survey.id), { body: patchBody(survey, { title: 'Mine now' }) }),
      my.bob.request('DELETE', url(survey.id)),
      my.bob.request('POST', url(survey.id, 'copy')),
      my.bob.request('GET', `/api/surveys-manager/surveys/${survey.id}`),
      my.alice.request('GET', url(crypto.randomUUID())),
      my.alice.request('GET', url('not-a-uuid')),
    ]);
    for (const res of attempts) {
      expect(res.statusCode, res.body).toBe(404);
      expect(res.json().key).toBe('survey.notFound');
    }
    expect((await my.bob.request('GET', '/api/cabinet/surveys/')).json().items).toEqual([]);
    expect(await read(survey.id)).toEqual(survey);

    await seedUser(t.app, 'root', { role: 'super_user' });
    const root = new Client(t.app);
    await root.login('root');
    const own = await created(root, SCREENER);
    expect(
      (await root.request('GET', '/api/cabinet/surveys/'))
        .json()
        .items.map((s: Survey) => s.id)
        .sort(),
    ).toEqual([survey.id, own.id].sort());
    expect((await root.request('GET', `/api/surveys-manager/surveys/${survey.id}`)).statusCode).toBe(200);
    // Staff copying a customer's questionnaire leave the copy with the customer.
    const copy = surveyOutput.parse((await root.request('POST', url(survey.id, 'copy'))).json());
    expect((await my.alice.request('GET', url(copy.id))).statusCode).toBe(200);
    expect((await my.alice.request('GET', url(own.id))).statusCode).toBe(404);
  });

  it("hands a project's questionnaires to its new owner, not those another project uses too", async () => {
    const screener = await created(my.alice, SCREENER);
    const shared = await created(my.alice, SURVEY);
    await scenario({
      campaign_ids: [my.researchIds[0]],
      screener_survey_id: screener.id,
      embedded_survey_id: shared.id,
    });
    const other = await projectWithResearches(my.alice, 'en', 1);
    await scenario({ campaign_ids: other.researchIds, embedded_survey_id: shared.id }, other.projectId);
    const bobId = (await my.bob.request('GET', '/api/users/user-data/')).json().public_user_id;
    const moved = await my.alice.request('POST', `/api/cabinet/projects/${my.projectId}/change-owner/`, {
      body: { public_user_id: bobId },
    });
    expect(moved.statusCode, moved.body).toBe(200);
    expect((await my.alice.request('GET', url(screener.id))).statusCode).toBe(404);
    expect((await my.bob.request('GET', url(screener.id))).statusCode).toBe(200);
    expect((await my.alice.request('GET', url(shared.id))).statusCode).toBe(200);
    expect((await my.bob.request('GET', url(shared.id))).statusCode).toBe(404);
  });
});
