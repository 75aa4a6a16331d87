import { scenarioOutput } from '@emolens/contracts';
import { describe, expect, it } from 'vitest';
import { TEST_BACKEND } from '../../test/harness.ts';
import { created, fieldKeys, questionnairesPerFile, SCREENER, SURVEY } from './surveys.fixture.ts';

/**
 * Questionnaires linked to scenarios: a screener in the screener slot and a survey in the survey slot, the user's own
 * only; never in a scenario of several researches (the spec's two messages, whichever change breaks the rule); one
 * questionnaire shared by scenarios of one research each, duplicates included.
 */
const { my, read, scenario } = questionnairesPerFile();

describe(`linking questionnaires to scenarios on ${TEST_BACKEND}`, () => {
  it('takes a screener in the screener slot and a survey in the survey slot, of the user', async () => {
    const screener = await created(my.alice, SCREENER);
    const survey = await created(my.alice, SURVEY);
    const res = await scenario({
      campaign_ids: [my.researchIds[0]],
      screener_survey_id: screener.id,
      embedded_survey_id: survey.id,
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({ screener_survey_id: screener.id, embedded_survey_id: survey.id });
    expect((await read(screener.id)).links.map((l) => l.slot)).toEqual(['screener']);
    expect((await read(survey.id)).links.map((l) => l.slot)).toEqual(['survey']);

    const swapped = await scenario({ screener_survey_id: survey.id, embedded_survey_id: screener.id });
    expect(swapped.statusCode).toBe(400);
    expect(fieldKeys(swapped)).toEqual({
      screener_survey_id: 'survey.screenerSlot',
      embedded_survey_id: 'survey.surveySlot',
    });
    const bobs = await created(my.bob, SCREENER);
    for (const id of [bobs.id, crypto.randomUUID(), 'not-a-uuid']) {
      const missing = await scenario({ screener_survey_id: id });
      expect(missing.statusCode).toBe(400);
      expect(fieldKeys(missing)).toEqual({ screener_survey_id: 'survey.notFound' });
    }
    const s = scenarioOutput.parse(res.json());
    const patched = await my.alice.request('PATCH', `/api/cabinet/scenarios/${s.id}/`, {
      body: { embedded_survey_id: bobs.id, updated_at: s.updated_at },
    });
    expect(fieldKeys(patched)).toEqual({ embedded_survey_id: 'survey.notFound' });
    expect((await read(bobs.id, my.bob)).links).toEqual([]);
    expect(
      (await my.alice.request('GET', `/api/cabinet/projects/${my.projectId}/scenarios/`)).json().items,
    ).toHaveLength(1);
  });

  it("refuses a questionnaire in a scenario of several researches: the spec's two messages", async () => {
    const screener = await created(my.alice, SCREENER);
    const survey = await created(my.alice, SURVEY);
    const twoScreened = await scenario({ campaign_ids: my.researchIds, screener_survey_id: screener.id });
    expect(twoScreened.statusCode).toBe(400);
    expect(twoScreened.json()).toEqual({
      code: 'validation_failed',
      message: 'Screening questionnaire is linked to multiple campaigns',
      key: 'survey.linkedScreenerMany',
      fields: { screener_survey_id: 'Screening questionnaire is linked to multiple campaigns' },
      field_keys: { screener_survey_id: { key: 'survey.linkedScreenerMany' } },
    });
    const twoSurveyed = await scenario({ campaign_ids: my.researchIds, embedded_survey_id: survey.id });
    expect(twoSurveyed.json()).toMatchObject({
      message: 'Post-questionnaire is linked to multiple campaigns',
      key: 'survey.linkedSurveyMany',
      field_keys: { embedded_survey_id: { key: 'survey.linkedSurveyMany' } },
    });

    // A second research added to a scenario with a questionnaire: the research is what breaks the rule.
    const one = scenarioOutput.parse(
      (await scenario({ campaign_ids: [my.researchIds[0]], screener_survey_id: screener.id })).json(),
    );
    const added = await my.alice.request('PATCH', `/api/cabinet/scenarios/${one.id}/`, {
      body: { campaign_ids: my.researchIds, updated_at: one.updated_at },
    });
    expect(added.statusCode).toBe(400);
    expect(added.json()).toMatchObject({
      key: 'survey.linkedScreenerMany',
      field_keys: { campaign_ids: { key: 'survey.linkedScreenerMany' } },
    });
    // A questionnaire given to a scenario that already shows two researches.
    const two = scenarioOutput.parse((await scenario({ campaign_ids: my.researchIds })).json());
    const given = await my.alice.request('PATCH', `/api/cabinet/scenarios/${two.id}/`, {
      body: { embedded_survey_id: survey.id, updated_at: two.updated_at },
    });
    expect(given.json()).toMatchObject({
      key: 'survey.linkedSurveyMany',
      field_keys: { embedded_survey_id: { key: 'survey.linkedSurveyMany' } },
    });
    // Both together: the research list changes and the questionnaire goes, in one save.
    const swapped = await my.alice.request('PATCH', `/api/cabinet/scenarios/${one.id}/`, {
      body: { campaign_ids: my.researchIds, screener_survey_id: null, updated_at: one.updated_at },
    });
    expect(swapped.statusCode, swapped.body).toBe(200);
    expect((await read(screener.id)).links).toEqual([]);
    expect((await read(survey.id)).links).toEqual([]);
  });

  it('shares a questionnaire between scenarios of one research each, duplicates included', async () => {
    const survey = await created(my.alice, SURVEY);
    const first = scenarioOutput.parse(
      (await scenario({ campaign_ids: [my.researchIds[0]], embedded_survey_id: survey.id })).json(),
    );
    const second = await scenario({ campaign_ids: [my.researchIds[1]], embedded_survey_id: survey.id });
    expect(second.statusCode, second.body).toBe(201);
    // Without a research yet: nothing to break.
    expect((await scenario({ embedded_survey_id: survey.id })).statusCode).toBe(201);
    const duplicate = await my.alice.request('POST', `/api/cabinet/scenarios/${first.id}/duplicate/`);
    expect(duplicate.statusCode, duplicate.body).toBe(201);
    expect(duplicate.json().embedded_survey_id).toBe(survey.id);
    expect((await read(survey.id)).links.map((l) => l.scenario_order)).toEqual([1, 2, 3, 4]);
  });
});
