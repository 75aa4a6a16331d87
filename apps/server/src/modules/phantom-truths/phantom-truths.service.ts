import type { PhantomRespondentError, PhantomTruthInput, PhantomTruthSaved, PhantomTruths } from '@emolens/contracts';
import { scorePhantomSession } from '@emolens/phantom/session-truth';
import type { Deps } from '../../context.ts';
import type { User } from '../../db/types.ts';
import { AppError } from '../../http/errors.ts';
import { requireAccess } from '../access/access.ts';
import type { TruthProcessRow } from './phantom-truths.repository.ts';

/**
 * Phantom respondents' truth (decision 035): attached to a session by its project's owner (or staff), and scored,
 * per respondent of a research, against the engine's stored per-frame result with the validation's own scoring
 * (`npm run validate`, packages/phantom/src/validation). Read-only on everything but the truth itself.
 */
type PhantomTruthsDeps = Pick<Deps, 'access' | 'phantomTruths'>;

export async function savePhantomTruth(
  deps: PhantomTruthsDeps,
  user: User,
  sessionId: string,
  truth: PhantomTruthInput,
): Promise<PhantomTruthSaved> {
  await requireAccess(deps.access, user, 'respondentSession.manage', sessionId);
  const session = await deps.phantomTruths.sessionKind(sessionId);
  if (!session) throw new AppError('not_found', { message: 'fieldwork.sessionNotFound' });
  // A preview is never processed: its truth would have nothing to be scored against.
  if (session.is_preview) throw new AppError('invalid_state', { message: 'fieldwork.phantomTruthPreview' });
  const created = await deps.phantomTruths.save(sessionId, truth, user.id);
  return { session_id: sessionId, name: truth.phantom.name, frames: truth.frames.length, created };
}

export async function phantomTruthsOf(deps: PhantomTruthsDeps, user: User, researchId: string): Promise<PhantomTruths> {
  await requireAccess(deps.access, user, 'campaign.manage', researchId);
  const rows = await deps.phantomTruths.processesWithTruth(researchId);
  return { items: rows.map(scoreRow) };
}

function scoreRow(row: TruthProcessRow): PhantomRespondentError {
  const { truth } = row;
  const scored =
    row.result && row.recording_start_ms !== null
      ? scorePhantomSession(truth, row.result, row.recording_start_ms)
      : null;
  return {
    session_id: row.session_id,
    participant_id: row.participant_id,
    process_id: row.process_id,
    status: row.status,
    phantom: {
      name: truth.phantom.name,
      source: truth.phantom.source,
      fps: truth.phantom.fps,
      duration_ms: truth.phantom.duration_ms,
    },
    measured: scored !== null,
    gaze: scored?.gaze ?? null,
    expressions: scored?.expressions ?? [],
    blinks: scored?.blinks ?? null,
    pose: scored?.pose ?? [],
  };
}
