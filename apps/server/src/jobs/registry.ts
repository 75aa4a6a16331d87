import { cleanExpiredSessionsJob } from '../modules/auth/jobs/clean-expired-sessions.job.ts';
import { analyzeDemoJob } from '../modules/demo/jobs/analyze-demo.job.ts';
import { seedDemoDataJob } from '../modules/demo-data/jobs/seed-demo-data.job.ts';
import { analyzeDotTestJob, cleanDotTestsJob } from '../modules/dot-test/jobs/dot-test-jobs.ts';
import { cleanUploadsJob } from '../modules/media/jobs/clean-uploads.job.ts';
import { emptyStorageTrashJob } from '../modules/media/jobs/empty-storage-trash.job.ts';
import { probeMediaJob } from '../modules/media/jobs/probe-media.job.ts';
import { dispatchProcessesJob, processRecordingJob } from '../modules/processing/jobs/process-recording.job.ts';
import { buildReportJob } from '../modules/reports/jobs/build-report.job.ts';
import { makeReportFileJob } from '../modules/reports/jobs/make-report-file.job.ts';
import { applyRetentionJob } from '../modules/retention/jobs/apply-retention.job.ts';
import type { JobDefinition } from './define.ts';

export const JOBS: readonly JobDefinition[] = [
  cleanExpiredSessionsJob,
  probeMediaJob,
  cleanUploadsJob,
  emptyStorageTrashJob,
  processRecordingJob,
  dispatchProcessesJob,
  analyzeDotTestJob,
  cleanDotTestsJob,
  applyRetentionJob,
  analyzeDemoJob,
  buildReportJob,
  makeReportFileJob,
  seedDemoDataJob,
];
