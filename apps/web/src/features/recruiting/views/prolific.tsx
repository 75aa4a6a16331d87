import type { ProlificStudyOutput } from '@emolens/contracts';
import { IconPlayerPause, IconPlayerPlay, IconPlayerStop, IconSend } from '@tabler/icons-react';
import type { PlatformView } from '../platform-view.ts';
import { minutesField, respondentsField, titleField } from './fields.ts';

type Study = NonNullable<ProlificStudyOutput['study']>;

const STATUS_COLORS: Record<string, string> = {
  UNPUBLISHED: 'gray',
  PUBLISHING: 'blue',
  ACTIVE: 'green',
  SCHEDULED: 'blue',
  PAUSED: 'yellow',
  'AWAITING REVIEW': 'orange',
  COMPLETED: 'dark',
};

const ACTION_OPTIONS = [
  { value: 'MANUALLY_REVIEW', label: 'study.actions.MANUALLY_REVIEW' },
  { value: 'AUTOMATICALLY_APPROVE', label: 'study.actions.AUTOMATICALLY_APPROVE' },
  { value: 'REQUEST_RETURN', label: 'study.actions.REQUEST_RETURN' },
];

/**
 * Prolific: a study made as a draft, published, paused, started again and stopped; its completion codes (one per
 * outcome of a session, each with what Prolific does on it) are shown once it is made. The reward is in the
 * workspace's currency (Prolific takes its hundredth part).
 */
export const PROLIFIC_VIEW: PlatformView<ProlificStudyOutput, Study> = {
  platform: 'prolific',
  texts: 'study',
  tokensPath: '/cabinet/prolific',
  job: (data) => data.study,
  statusColor: (study) => STATUS_COLORS[study.status] ?? 'gray',
  statusNote: () => null,
  sizeFacts: (study, { t }) => [
    [t('study.places'), String(study.places)],
    [t('study.minutes'), String(study.minutes)],
    [
      t('study.devices'),
      `${study.devices.map((d) => t(`study.deviceNames.${d}`)).join(', ')}${study.webcam ? ` · ${t('study.webcam')}` : ''}`,
    ],
  ],
  costHint: ({ t }) => t('study.costHint'),
  idFacts: (study, { t }) => [
    [t('study.id'), study.study_id],
    ...(['complete', 'screen_out', 'quota_full'] as const).map((o): [string, string] => [
      t(`study.codes.${o}`),
      `${study.completion_codes[o].code} · ${t(`study.actions.${study.completion_codes[o].action}`)}`,
    ]),
  ],
  actions: [
    { kind: 'publish', color: 'green', icon: <IconSend size={16} /> },
    { kind: 'pause', color: 'yellow', variant: 'light', icon: <IconPlayerPause size={16} /> },
    { kind: 'start', color: 'green', variant: 'light', icon: <IconPlayerPlay size={16} /> },
    { kind: 'stop', color: 'red', variant: 'light', icon: <IconPlayerStop size={16} /> },
  ],
  form: {
    rows: [
      titleField('study.taskTitle'),
      {
        kind: 'textarea',
        name: 'description',
        label: 'study.description',
        hint: 'study.descriptionHint',
        required: true,
      },
      {
        cols: { base: 1, xs: 3 },
        grid: [
          {
            kind: 'number',
            name: 'reward',
            label: 'study.reward',
            hint: 'study.rewardHint',
            limits: 'reward',
            decimals: 2,
            fixedDecimals: true,
            step: 0.05,
          },
          respondentsField('places', 'study.places', 'places'),
          { ...minutesField, label: 'study.minutes' },
        ],
      },
      {
        cols: { base: 1, sm: 3 },
        grid: [
          {
            kind: 'select',
            name: 'actions.complete',
            label: 'study.codes.complete',
            options: ACTION_OPTIONS.filter((o) => o.value !== 'REQUEST_RETURN'),
          },
          { kind: 'select', name: 'actions.screen_out', label: 'study.codes.screen_out', options: ACTION_OPTIONS },
          { kind: 'select', name: 'actions.quota_full', label: 'study.codes.quota_full', options: ACTION_OPTIONS },
        ],
      },
      {
        cols: { base: 1, sm: 2 },
        grid: [
          {
            kind: 'checks',
            name: 'devices',
            label: 'study.devices',
            options: [
              { value: 'desktop', label: 'study.deviceNames.desktop' },
              { value: 'tablet', label: 'study.deviceNames.tablet' },
              { value: 'mobile', label: 'study.deviceNames.mobile' },
            ],
          },
          { kind: 'switch', name: 'webcam', label: 'study.webcamRequired', hint: 'study.webcamHint' },
        ],
      },
    ],
    initial: ({ title, quota, t }) => ({
      title,
      // Prolific's participants read English: the suggested text is English in every language of the cabinet.
      description: t('study.descriptionDefault', { lng: 'en' }),
      reward: 1,
      places: quota ?? 100,
      minutes: 10,
      'actions.complete': 'MANUALLY_REVIEW',
      'actions.screen_out': 'REQUEST_RETURN',
      'actions.quota_full': 'REQUEST_RETURN',
      devices: ['desktop'],
      webcam: 'on',
    }),
  },
};
