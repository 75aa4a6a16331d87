import { describe, expect, it } from 'vitest';
import { parseQuotaSize, scenarioValidator, scenarioValues } from './scenario-form.ts';

const validate = scenarioValidator();
const values = (patch: Partial<ReturnType<typeof scenarioValues>>) => ({ ...scenarioValues(null), ...patch });

describe('the scenario form', () => {
  it('takes an empty scenario and a good one', () => {
    expect(validate(scenarioValues(null))).toEqual({});
    expect(
      validate(
        values({ quota: 0, redirect_links: { complete: 'https://a.example/done', quota_full: '', screen_out: '' } }),
      ),
    ).toEqual({});
  });

  it('refuses a negative quota with the field message, keeping the sign', () => {
    expect(validate(values({ quota: -5 }))).toEqual({ quota: 'Must be 0 or more' });
    expect(validate(values({ quota: 1.5 }))).toEqual({ quota: 'Enter a whole number' });
    expect(validate(values({ quota: '-' }))).toEqual({ quota: 'Enter a whole number' });
  });

  it('puts a bad redirect link under its field', () => {
    const links = { complete: 'ftp://x', quota_full: 'not a link', screen_out: '' };
    expect(validate(values({ redirect_links: links }))).toEqual({
      'redirect_links.complete': 'Enter a link starting with http:// or https://',
      'redirect_links.quota_full': 'Enter a link starting with http:// or https://',
    });
  });
});

describe('the quota size of a quota link', () => {
  it('is a whole number of at least 1, or none', () => {
    expect(parseQuotaSize('')).toEqual({ quota_size: null });
    expect(parseQuotaSize(12)).toEqual({ quota_size: 12 });
    expect(parseQuotaSize(-5)).toEqual({ error: 'At least 1' });
    expect(parseQuotaSize(0)).toEqual({ error: 'At least 1' });
    expect(parseQuotaSize(2.5)).toEqual({ error: 'Enter a whole number' });
  });
});
