import { HEATMAP_THEMES, REPORT_FILE_KINDS } from '@emolens/contracts';
import { z } from 'zod';
import { defineJob } from '../../../jobs/define.ts';

export const makeReportFilePayload = z.object({
  report_id: z.uuid(),
  kind: z.enum(REPORT_FILE_KINDS),
  attempt: z.number().int().min(1),
  theme: z.enum(HEATMAP_THEMES),
});

/** One attempt at a report's presentation (PPTX) or video export (MP4): rendered in a worker, stored, recorded. */
export const makeReportFileJob = defineJob({
  name: 'make-report-file',
  payload: makeReportFilePayload,
  retryLimit: 1,
  expireInSeconds: 30 * 60,
  heartbeatSeconds: 30,
  load: () => import('./make-report-file.handler.ts'),
});
