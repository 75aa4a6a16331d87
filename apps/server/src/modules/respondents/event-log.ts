import { type EventBatchInput, RESPONDENT_LIMITS, type RespondentEvent, type RespondentStep } from '@emolens/contracts';
import type { RespondentSessionRow } from '../../db/types.ts';
import { AppError } from '../../http/errors.ts';
import type { EventWrite } from '../recording/recording.repository.ts';
import { admitBatch, batchDigest, checkEventTimes } from '../recording/recording-log.ts';
import type { RespondentsDeps } from './respondents.service.ts';

type EventBatchOutput = { seq: number; stored: boolean; next_event_seq: number };

/**
 * What a new batch writes, or why it is refused: times never go backwards (within the batch and
 * from the previous batch), lie inside the session (not past its clock plus the slack), and a
 * research start names the research at its place in the session's order.
 */
export function checkBatch(
  session: Pick<RespondentSessionRow, 'research_order'>,
  events: readonly RespondentEvent[],
  previousLastT: number,
  clockMs: number,
): EventWrite {
  const last = checkEventTimes(events, previousLastT, clockMs, RESPONDENT_LIMITS.clockSlackMs);
  let step: RespondentStep | undefined;
  let researchIndex: number | undefined;
  const fields: Record<string, 'validation.invalid'> = {};
  for (const [i, event] of events.entries()) {
    // A logged step moves where the session is; the screener counts as run by its answers, not by a step.
    if (event.type === 'step') step = event.step;
    if (event.type === 'research_start') {
      if (session.research_order[event.index] !== event.campaign_id)
        fields[`events.${i}.campaign_id`] = 'validation.invalid';
      researchIndex = event.index;
    }
    if (event.type === 'research_end' && !session.research_order.includes(event.campaign_id)) {
      fields[`events.${i}.campaign_id`] = 'validation.invalid';
    }
  }
  if (Object.keys(fields).length) throw new AppError('bad_request', { fields });
  const first = events[0]?.t ?? 0;
  return {
    events: [...events],
    first_t: first,
    last_t: last,
    digest: batchDigest(events),
    step,
    research_index: researchIndex,
  };
}

/**
 * One batch of the event log, idempotent by its sequence number: the next number is stored; a
 * stored number with the same events is a harmless repeat (also after the session ended), with
 * other events a conflict; a number past the next one a gap. One short transaction holds the
 * session row, so two batches of one session never interleave.
 */
export async function postEvents(
  deps: RespondentsDeps,
  session: RespondentSessionRow,
  input: EventBatchInput,
): Promise<EventBatchOutput> {
  if (session.is_preview) throw new AppError('invalid_state', { message: 'respondent.previewNotSaved' });
  const digest = batchDigest(input.events);
  return deps.recording.withEventLog<'session', EventBatchOutput>(
    'session',
    session.id,
    input.seq,
    ({ row: current, clockMs, next, previous, atSeq }) => {
      const slot = { next, atSeq, recording: current.status === 'started', ended: 'respondent.sessionEnded' } as const;
      if (admitBatch(input.seq, digest, slot) === 'repeat') {
        return { result: { seq: input.seq, stored: false, next_event_seq: next } };
      }
      const write = checkBatch(current, input.events, previous?.last_t ?? 0, clockMs);
      return { result: { seq: input.seq, stored: true, next_event_seq: next + 1 }, write };
    },
  );
}
