import type { SelfServiceTest } from '@emolens/contracts';
import { describe, expect, it } from 'vitest';
import { pollInterval } from './api.ts';
import { draftPatch, draftValues, formErrors, formPath, stepNeedsWork, validateDraft } from './draft-form.ts';

function sample(patch: Partial<SelfServiceTest> = {}): SelfServiceTest {
  return {
    id: 't1',
    title: 'Spot',
    state: 'draft',
    collected: 0,
    required: 100,
    sessions: null,
    owner: { public_user_id: 'U1', username: 'alice', name: 'Alice' },
    created_at: '2026-01-01T00:00:00.000Z',
    updated_at: '2026-01-01T00:00:00.000Z',
    submitted_at: null,
    started_at: null,
    language: 'ru',
    audience: { sex: 'off', age_min: null, age_max: null, regions: [] },
    categories: { brand: '', sub_brand: '', company: '', industry: '', sector: '', category: '', subtype: '' },
    campaign_id: 'c1',
    project_id: 'p1',
    video: null,
    survey_id: 's1',
    survey_problems: [],
    sessions_per_interview: null,
    balance: null,
    moderation_comment: null,
    report_id: null,
    quota_link: null,
    history: [],
    problems: [],
    can: {
      edit: true,
      submit: false,
      moderate: false,
      start: false,
      complete: false,
      archive: false,
      delete: true,
    },
    ...patch,
  };
}

describe('the draft form', () => {
  it('sends only what changed', () => {
    const test = sample();
    const values = draftValues(test);
    expect(draftPatch(values, test)).toEqual({});
    expect(draftPatch({ ...values, respondents: 250 }, test)).toEqual({ respondents: 250 });
    expect(draftPatch({ ...values, categories: { ...values.categories, subtype: 'TV spot' } }, test)).toEqual({
      categories: { subtype: 'TV spot' },
    });
    expect(draftPatch({ ...values, age_min: 18, regions: ['ru', ' kz'] }, test)).toEqual({
      audience: { sex: 'off', age_min: 18, age_max: null, regions: ['RU', 'KZ'] },
    });
  });

  it('checks the inputs with the contract', () => {
    const values = draftValues(sample());
    expect(validateDraft(values)).toEqual({});
    const errors = validateDraft({ ...values, respondents: 50, age_min: 40, age_max: 30, regions: ['RUS'] });
    expect(Object.keys(errors).sort()).toEqual(['age_max', 'regions', 'respondents']);
    expect(errors.respondents).toBe('At least 100 respondents');
  });

  it('puts the server’s field paths on the inputs', () => {
    expect(formPath('audience.regions.2')).toBe('regions');
    expect(formPath('categories.subtype')).toBe('categories.subtype');
    expect(formErrors({ 'audience.age_min': 'a', respondents: 'b' })).toEqual({ age_min: 'a', respondents: 'b' });
  });

  it('marks the steps by the server’s problems', () => {
    const test = sample({ problems: ['selfservice.videoMissing', 'selfservice.subtypeMissing'] });
    expect(stepNeedsWork('video', test)).toBe(true);
    expect(stepNeedsWork('categories', test)).toBe(true);
    expect(stepNeedsWork('audience', test)).toBe(false);
    expect(stepNeedsWork('survey', sample({ survey_problems: ['x'] }))).toBe(true);
  });

  it('asks again while the video is probed or respondents are collected', () => {
    const video = { id: 'm1', filename: 'a.mp4', status: 'processing', duration_seconds: null };
    expect(pollInterval(sample())).toBe(false);
    expect(pollInterval(sample({ video }))).toBeGreaterThan(0);
    expect(
      pollInterval(sample({ video: { ...video, status: 'ready', duration_seconds: 30 }, sessions_per_interview: 1 })),
    ).toBe(false);
    expect(pollInterval(sample({ state: 'collection' }))).toBeGreaterThan(0);
    expect(pollInterval(sample({ state: 'completed' }))).toBe(false);
  });
});
