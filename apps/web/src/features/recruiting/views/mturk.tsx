import { MTURK_FEE, type MturkHitOutput } from '@emolens/contracts';
import { Anchor, Group } from '@mantine/core';
import { IconExternalLink, IconPlayerStop } from '@tabler/icons-react';
import type { PlatformView } from '../platform-view.ts';
import { minutesField, respondentsField, rewardField, titleField } from './fields.ts';

type Hit = NonNullable<MturkHitOutput['hit']>;

const STATUS_COLORS: Record<string, string> = {
  Assignable: 'green',
  Unassignable: 'yellow',
  Reviewable: 'gray',
  Reviewing: 'blue',
  Disposed: 'dark',
};

/**
 * Amazon Mechanical Turk: an ExternalQuestion HIT framing the quota link, expired to stop it; the form shows its
 * cost (MTurk's fee grows from 10 assignments) and confirms it before MTurk is asked.
 */
export const MTURK_VIEW: PlatformView<MturkHitOutput, Hit> = {
  platform: 'mturk',
  texts: 'hit',
  tokensPath: '/cabinet/amazon',
  job: (data) => data.hit,
  statusColor: (hit) => (hit.expired ? 'gray' : (STATUS_COLORS[hit.status] ?? 'gray')),
  statusNote: (hit, { t, when }) =>
    hit.expires_at
      ? t(hit.expired ? 'hit.expiredAt' : 'hit.expiresAt', { when: when.format(new Date(hit.expires_at)) })
      : null,
  sizeFacts: (hit, { t }) => {
    const { available, pending, submitted, completed } = hit.assignments;
    return [
      [t('hit.assignments'), String(hit.max_assignments)],
      [
        t('hit.progress'),
        available === null
          ? '—'
          : t('hit.progressValue', {
              available,
              pending: pending ?? 0,
              submitted: submitted ?? 0,
              completed: completed ?? 0,
            }),
      ],
    ];
  },
  costHint: ({ t }) => t('hit.costHint'),
  idFacts: (hit, { t }) => [
    [t('hit.id'), hit.hit_id],
    [
      t('hit.preview'),
      hit.preview_url ? (
        <Anchor key="preview" href={hit.preview_url} target="_blank" rel="noreferrer" size="sm">
          <Group gap={4} wrap="nowrap">
            {t('hit.previewOpen')}
            <IconExternalLink size={14} />
          </Group>
        </Anchor>
      ) : (
        '—'
      ),
    ],
  ],
  actions: [{ kind: 'expire', color: 'red', variant: 'light', icon: <IconPlayerStop size={16} /> }],
  form: {
    rows: [
      titleField('hit.taskTitle'),
      { kind: 'textarea', name: 'description', label: 'hit.description', hint: 'hit.descriptionHint', required: true },
      { kind: 'text', name: 'keywords', label: 'hit.keywords', hint: 'hit.keywordsHint' },
      {
        cols: { base: 1, xs: 2, md: 4 },
        grid: [
          rewardField(2, true),
          respondentsField('max_assignments', 'hit.assignments', 'assignments'),
          minutesField,
          { kind: 'number', name: 'days', label: 'hit.days', limits: 'days' },
        ],
      },
    ],
    initial: ({ title, quota, t }) => ({
      title,
      // Workers on MTurk read English: the suggested text is English in every language of the cabinet.
      description: t('hit.descriptionDefault', { lng: 'en' }),
      keywords: '',
      reward: 0.5,
      max_assignments: quota ?? 100,
      minutes: 60,
      days: 7,
    }),
    estimate: {
      respondents: 'max_assignments',
      feePercent: (n) => Math.round((MTURK_FEE.share + (n >= MTURK_FEE.manyFrom ? MTURK_FEE.manyShare : 0)) * 100),
    },
  },
};
