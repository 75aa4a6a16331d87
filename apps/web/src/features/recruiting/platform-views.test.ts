import { RECRUITING_PLATFORM_CONTRACTS, RECRUITING_PLATFORMS } from '@emolens/contracts';
import type { TFunction } from 'i18next';
import { describe, expect, it } from 'vitest';
import { bodyOf } from './platform-body.ts';
import { PLATFORM_VIEWS } from './views/index.ts';

const t = ((key: string) => `text of ${key}`) as unknown as TFunction<'integrations'>;
const fields = (platform: (typeof RECRUITING_PLATFORMS)[number]) =>
  PLATFORM_VIEWS[platform].form.rows.flatMap((row) => ('grid' in row ? row.grid : [row]));

describe('the recruiting platforms’ views against their contracts', () => {
  it.each(RECRUITING_PLATFORMS)('%s: the form as first shown is a valid "make it" input', (platform) => {
    const view = PLATFORM_VIEWS[platform];
    const values = view.form.initial({ title: 'A research', quota: 40, t });
    const parsed = RECRUITING_PLATFORM_CONTRACTS[platform].create.safeParse(bodyOf(view.form.rows, values));
    expect(parsed.success).toBe(true);
  });

  it.each(RECRUITING_PLATFORMS)(
    '%s: every field is one of the input’s, every number bounded by its limits',
    (platform) => {
      const contract = RECRUITING_PLATFORM_CONTRACTS[platform];
      const values = PLATFORM_VIEWS[platform].form.initial({ title: 'A research', quota: null, t });
      for (const field of fields(platform)) {
        expect(Object.keys(values)).toContain(field.name);
        if (field.kind === 'number') expect(Object.keys(contract.limits)).toContain(field.limits);
      }
      expect(Object.keys(values).sort()).toEqual(
        fields(platform)
          .map((f) => f.name)
          .sort(),
      );
    },
  );

  it.each(RECRUITING_PLATFORMS)('%s: the buttons are the contract’s actions', (platform) => {
    expect(PLATFORM_VIEWS[platform].actions.map((a) => a.kind)).toEqual([
      ...RECRUITING_PLATFORM_CONTRACTS[platform].actions,
    ]);
  });

  it('an empty optional number is sent as null (the quota link’s quota), others as numbers', () => {
    const view = PLATFORM_VIEWS.mturk;
    const values = { ...view.form.initial({ title: 'A research', quota: 40, t }), max_assignments: '', reward: '0.25' };
    const body = bodyOf(view.form.rows, values);
    expect(body).toMatchObject({ max_assignments: null, reward: 0.25, minutes: 60, days: 7 });
    expect(body.description).toBe('text of hit.descriptionDefault');
  });

  it('MTurk’s fee in percent grows from 10 assignments', () => {
    const estimate = PLATFORM_VIEWS.mturk.form.estimate;
    expect(estimate?.feePercent(9)).toBe(20);
    expect(estimate?.feePercent(10)).toBe(40);
    expect(PLATFORM_VIEWS.toloka.form.estimate).toBeUndefined();
  });
});
