import type { Field } from '../platform-view.ts';

/**
 * The fields every platform's form has (the contract's `recruiting-base.ts`): the title workers see, the reward
 * per respondent in USD (`decimals` as the platform takes them), how many respondents (empty: the quota link's
 * quota) and the time limit.
 */
export const titleField = (label: string): Field => ({ kind: 'text', name: 'title', label, required: true });

export const rewardField = (decimals: number, fixedDecimals = false): Field => ({
  kind: 'number',
  name: 'reward',
  label: 'pool.reward',
  limits: 'reward',
  prefix: '$',
  decimals,
  fixedDecimals,
  step: 0.05,
});

export const respondentsField = (name: string, label: string, limits: string): Field => ({
  kind: 'number',
  name,
  label,
  hint: 'pool.overlapHint',
  limits,
  nullable: true,
});

export const minutesField: Field = { kind: 'number', name: 'minutes', label: 'pool.minutes', limits: 'minutes' };
