import { cleanExpiredSessionsJob } from '../modules/auth/jobs/clean-expired-sessions.job.ts';
import { checkCalibrationJob } from '../modules/calibration-check/jobs/calibration-check-jobs.ts';
import { seedDemoDataJob } from '../modules/demo-data/jobs/seed-demo-data.job.ts';
import { analyzeDotTestJob, cleanDotTestsJob } from '../modules/dot-test/jobs/dot-test-jobs.ts';
import { cleanSharedStateJob } from '../modules/health/jobs/clean-shared-state.job.ts';
import { analyzeDemoJob } from '../modules/interview-analysis/jobs/analyze-demo.job.ts';
import { licencesOnRecordingProcessed } from '../modules/licences/jobs/subscribers.ts';
import { cleanUploadsJob } from '../modules/media/jobs/clean-uploads.job.ts';
import { emptyStorageTrashJob } from '../modules/media/jobs/empty-storage-trash.job.ts';
import { probeMediaJob } from '../modules/media/jobs/probe-media.job.ts';
import {
  notifyOnRecordingFailed,
  notifyOnReportBuilt,
  notifyOnReportFailed,
} from '../modules/notifications/jobs/subscribers.ts';
import { dispatchProcessesJob, processRecordingJob } from '../modules/processing/jobs/process-recording.job.ts';
import { processCompletedSession } from '../modules/processing/jobs/subscribers.ts';
import { buildReportJob } from '../modules/reports/jobs/build-report.job.ts';
import { makeReportFileJob } from '../modules/reports/jobs/make-report-file.job.ts';
import { applyRetentionJob } from '../modules/retention/jobs/apply-retention.job.ts';
import { retentionOnRecordingProcessed } from '../modules/retention/jobs/subscribers.ts';
import { selfServiceOnRecordingProcessed, selfServiceOnReportBuilt } from '../modules/self-service/jobs/subscribers.ts';
import { WEBHOOK_JOBS } from '../modules/webhooks/jobs/webhooks-jobs.ts';
import type { JobDefinition } from './define.ts';

/**
 * Every job and event subscriber (decision 027), handed to the queue by the composition root (`app.ts`, `main.ts`):
 * only they import this list.
 */
export const JOBS: readonly JobDefinition[] = [
  cleanExpiredSessionsJob,
  probeMediaJob,
  cleanUploadsJob,
  emptyStorageTrashJob,
  cleanSharedStateJob,
  processRecordingJob,
  dispatchProcessesJob,
  analyzeDotTestJob,
  cleanDotTestsJob,
  checkCalibrationJob,
  applyRetentionJob,
  analyzeDemoJob,
  buildReportJob,
  makeReportFileJob,
  seedDemoDataJob,
  // Subscribers, by the stage whose event they follow.
  processCompletedSession,
  selfServiceOnRecordingProcessed,
  licencesOnRecordingProcessed,
  retentionOnRecordingProcessed,
  notifyOnRecordingFailed,
  selfServiceOnReportBuilt,
  notifyOnReportBuilt,
  notifyOnReportFailed,
  // Webhooks: the delivery job, the log's pruning and a subscriber for each event an endpoint may choose.
  ...WEBHOOK_JOBS,
];
