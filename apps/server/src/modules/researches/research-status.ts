import type { ProjectStatus, ResearchStatus } from '@emolens/contracts';

/** What a research's recordings are doing, counted over its video processes. */
export interface ResearchWork {
  /** Every video process of the research. */
  processes: number;
  /** Waiting for or inside a worker (collected, restarted, preprocessing, in process). */
  running: number;
  /** Running ones that already have a result (a restart or a reprocess replacing it). */
  rerunning: number;
  /** Ended in error or detection error. */
  failed: number;
}

/**
 * The research status of spec section 4, from its project and its recordings' work: the one place the
 * server decides it (list and detail both ask here).
 */
export function researchStatus(stored: ResearchStatus, project: ProjectStatus, work: ResearchWork): ResearchStatus {
  if (project === 'archived') return 'archived';
  // Paused by hand stays paused, whatever the recordings do.
  if (stored === 'paused') return 'paused';
  if (work.running > 0) return work.rerunning > 0 ? 'reprocessing' : 'processing';
  if (project === 'completed') return 'done';
  if (project === 'active') return work.processes > 0 && work.failed === work.processes ? 'error' : 'active';
  // A draft project's research: as it was saved.
  return stored;
}
