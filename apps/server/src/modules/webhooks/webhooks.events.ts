import type { EventPayload } from '../../events/events.ts';
import { type DeliveryDeps, emit } from './webhooks.delivery.ts';

/**
 * What the pipeline's events become for an account's endpoints (decision 066): the subscriber reads the current facts
 * (ids in, the owner and what a receiver needs out) and emits the webhook event to the project owner's endpoints.
 * A preview session tells nobody. Each webhook event has a key, so a subscriber run twice sends nothing twice.
 */
type Session = NonNullable<Awaited<ReturnType<DeliveryDeps['webhooks']['sessionFacts']>>>;

function sessionData(s: Session) {
  return {
    session_id: s.id,
    project_id: s.project_id,
    scenario_id: s.scenario_id,
    quota_link_id: s.link_id,
    platform: s.platform,
    participant_id: s.participant_id,
    status: s.status,
    ended_at: s.ended_at?.toISOString() ?? null,
  };
}

const SESSION_TYPES = {
  completed: 'session.completed',
  screened_out: 'session.screened_out',
  quota_full: 'session.quota_full',
} as const;

/** `session.completed` (completed, or found the quota full) and `session.ended` (screened out, or turned away full). */
export async function onSessionEnd(deps: DeliveryDeps, payload: EventPayload<'session.completed'>): Promise<void> {
  const session = await deps.webhooks.sessionFacts(payload.session_id);
  if (!session || session.is_preview) return;
  const type = SESSION_TYPES[session.status as keyof typeof SESSION_TYPES];
  if (!type) return;
  await emit(deps, session.owner_id, { type, key: `${type}:${session.id}`, data: sessionData(session) });
}

/** A recording was processed; when it took the last slot of its quota link, the research's quota is filled too. */
export async function onRecordingProcessed(
  deps: DeliveryDeps,
  payload: EventPayload<'recording.processed'>,
): Promise<void> {
  const process = await deps.webhooks.processFacts(payload.process_id);
  if (!process || process.is_preview) return;
  await emit(deps, process.owner_id, {
    type: 'recording.processed',
    key: `recording.processed:${process.id}:${payload.generation}`,
    data: {
      process_id: process.id,
      session_id: process.session_id,
      research_id: process.campaign_id,
      project_id: process.project_id,
      status: payload.status,
      generation: payload.generation,
    },
  });
  if (!payload.counted) return;
  const quota = await deps.webhooks.linkQuota(process.link_id);
  if (!quota || quota.quota_size === null || quota.counted < quota.quota_size) return;
  await emit(deps, process.owner_id, {
    type: 'research.quota_filled',
    key: `research.quota_filled:${quota.id}`,
    data: {
      project_id: quota.project_id,
      scenario_id: quota.scenario_id,
      quota_link_id: quota.id,
      quota: quota.quota_size,
      counted: quota.counted,
    },
  });
}

export async function onReportBuilt(deps: DeliveryDeps, payload: EventPayload<'report.built'>): Promise<void> {
  const report = await deps.webhooks.reportFacts(payload.report_id);
  if (!report) return;
  await emit(deps, report.owner_id, {
    type: 'report.built',
    key: `report.built:${report.id}:${payload.generation}`,
    data: {
      report_id: report.id,
      name: report.name,
      research_id: report.campaign_id,
      project_id: report.project_id,
      generation: payload.generation,
    },
  });
}

export async function onSelfServiceStateChanged(
  deps: DeliveryDeps,
  payload: EventPayload<'self_service.state_changed'>,
): Promise<void> {
  const test = await deps.webhooks.selfServiceFacts(payload.test_id);
  if (!test) return;
  await emit(deps, test.owner_id, {
    type: 'self_service.state_changed',
    key: `self_service.state_changed:${test.id}:${payload.state}:${payload.changed_at}`,
    data: {
      test_id: test.id,
      title: test.title,
      project_id: test.project_id,
      research_id: test.campaign_id,
      state: payload.state,
      changed_at: payload.changed_at,
    },
  });
}
