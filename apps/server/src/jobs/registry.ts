import { cleanExpiredSessionsJob } from '../modules/auth/jobs/clean-expired-sessions.job.ts';
import type { JobDefinition } from './define.ts';

export const JOBS: readonly JobDefinition[] = [cleanExpiredSessionsJob];
