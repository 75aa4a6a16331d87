import type { Timestamp } from './columns.ts';

/** One rate limit's count for one client in the current window (decision 069). */
export interface RateLimitCountersTable {
  key: string;
  hits: number;
  expires_at: Timestamp;
}

/** A worker process's last heartbeat (decision 069): /healthz reports the age of the newest. */
export interface WorkerHeartbeatsTable {
  worker: string;
  host: string;
  pid: number;
  started_at: Timestamp;
  beat_at: Timestamp;
}

/** An unfinished upload being finished by one API process (its parts in the bucket, decision 069). */
export interface UploadFinishesTable {
  upload_id: string;
  claimed_at: Timestamp;
}
