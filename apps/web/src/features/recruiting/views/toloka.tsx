import { TOLOKA_FEE_SHARE, type TolokaPoolOutput } from '@emolens/contracts';
import { IconPlayerPlay, IconPlayerStop } from '@tabler/icons-react';
import type { PlatformView } from '../platform-view.ts';
import { minutesField, respondentsField, rewardField, titleField } from './fields.ts';

type Pool = NonNullable<TolokaPoolOutput['pool']>;

const STATUS_COLORS: Record<string, string> = { OPEN: 'green', CLOSED: 'gray', ARCHIVED: 'dark', LOCKED: 'orange' };

/** Toloka: a pool, run (opened) and stopped (closed); its audience chosen by sex, age and country. */
export const TOLOKA_VIEW: PlatformView<TolokaPoolOutput, Pool> = {
  platform: 'toloka',
  texts: 'pool',
  tokensPath: '/cabinet/toloka',
  job: (data) => data.pool,
  statusColor: (pool) => STATUS_COLORS[pool.status] ?? 'gray',
  statusNote: (pool, { t }) =>
    pool.status !== 'OPEN' && pool.last_close_reason
      ? t(`pool.reasons.${pool.last_close_reason}`, { defaultValue: pool.last_close_reason })
      : null,
  sizeFacts: (pool, { t }) => [[t('pool.overlap'), String(pool.overlap)]],
  costHint: ({ t }) => t('pool.costHint', { fee: Math.round(TOLOKA_FEE_SHARE * 100) }),
  idFacts: (pool, { t }) => [[t('pool.ids'), `${pool.toloka_project_id} / ${pool.pool_id}`]],
  actions: [
    { kind: 'open', color: 'green', icon: <IconPlayerPlay size={16} /> },
    { kind: 'close', color: 'red', variant: 'light', icon: <IconPlayerStop size={16} /> },
  ],
  form: {
    rows: [
      titleField('pool.taskTitle'),
      { kind: 'textarea', name: 'instruction', label: 'pool.instruction', hint: 'pool.instructionHint' },
      {
        cols: { base: 1, sm: 3 },
        grid: [rewardField(3), respondentsField('overlap', 'pool.overlap', 'overlap'), minutesField],
      },
      {
        kind: 'choice',
        name: 'sex',
        label: 'pool.sex',
        options: [
          { value: 'off', label: 'pool.sexAll' },
          { value: 'man', label: 'pool.sexMen' },
          { value: 'woman', label: 'pool.sexWomen' },
        ],
      },
      {
        cols: { base: 1, sm: 3 },
        grid: [
          { kind: 'number', name: 'age_min', label: 'pool.ageMin', limits: 'age', nullable: true },
          { kind: 'number', name: 'age_max', label: 'pool.ageMax', limits: 'age', nullable: true },
          { kind: 'countries', name: 'countries', label: 'pool.countries', hint: 'pool.countriesHint', max: 50 },
        ],
      },
    ],
    initial: ({ title, quota }) => ({
      title,
      instruction: '',
      reward: 0.3,
      overlap: quota ?? 100,
      minutes: 60,
      sex: 'off',
      age_min: '',
      age_max: '',
      countries: [],
    }),
  },
};
