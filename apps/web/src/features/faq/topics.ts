import {
  IconApi,
  IconChartHistogram,
  IconClipboardCheck,
  IconEyeCheck,
  IconFolders,
  IconLink,
} from '@tabler/icons-react';
import type { Icon } from '../public/docs-page.tsx';

export interface TopicDefinition {
  id: string;
  Icon: Icon;
  /** The questions' keys: the texts are `<prefix><id>.<question>Q` and `…A`. */
  questions: readonly string[];
}

/** The cabinet's own topics, in page order; their texts are `topics.<id>.<question>Q` / `…A` of `faq`. */
export const CABINET_TOPICS: readonly TopicDefinition[] = [
  {
    id: 'projects',
    Icon: IconFolders,
    questions: ['create', 'flow', 'researches', 'scenarios', 'launch', 'status'],
  },
  { id: 'links', Icon: IconLink, questions: ['what', 'toloka', 'mturk', 'cint', 'codes', 'fieldwork'] },
  {
    id: 'quality',
    Icon: IconEyeCheck,
    questions: ['calibration', 'checks', 'excluded', 'quota', 'settings', 'reprocess'],
  },
  { id: 'reports', Icon: IconChartHistogram, questions: ['build', 'segments', 'heatmaps', 'exports', 'benchmarks'] },
  {
    id: 'selfService',
    Icon: IconClipboardCheck,
    questions: ['what', 'create', 'sessions', 'moderation', 'start', 'report'],
  },
  { id: 'api', Icon: IconApi, questions: ['what', 'token', 'use', 'rotate', 'errors'] },
];
