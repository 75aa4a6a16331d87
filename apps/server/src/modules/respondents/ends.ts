import type { Outcome, PanelParams, Platform, SessionEnd } from '@emolens/contracts';
import type { RedirectLinks } from '../../db/types.ts';
import { adapterOfProject } from '../recruiting/platforms/index.ts';
import { formatShortCode, signCompletionCode } from './completion-code.ts';

export { cintRedirect } from '../recruiting/platforms/cint.ts';

/**
 * What an end is made of: the session, its short completion code (as stored), its researches' panel settings
 * and the scenario's redirects.
 */
export interface EndInput {
  session: {
    id: string;
    project_id: string;
    platform: Platform;
    participant_id: string | null;
    panel: PanelParams;
    research_order: string[];
    ended_at: Date | null;
  };
  outcome: Outcome;
  shortCode: string;
  /** The researches of the session in its order, with their settings (Cint's redirects are there). */
  researches: { id: string; settings: unknown }[];
  /** What the platform's end needs of them besides (Prolific's completion codes), by research id. */
  platformData?: Record<string, unknown>;
  redirectLinks: RedirectLinks;
}

/**
 * Where a respondent goes at the end (design section 6, spec section 3), per platform:
 * - a recruiting platform's own rule (`recruiting/platforms/`): Cint's redirect with the RID, MTurk's submit of
 *   the assignment, Prolific's completion page with the code of the outcome (a Prolific project without a study
 *   of Emolens's: the scenario's redirect, below); Toloka and Yandex tasks show the code, which the worker pastes into the task;
 * - every other platform: the scenario's redirect for the outcome with `{participant_id}`,
 *   `{status}`, `{code}` (the short code) and `{token}` (the signed one) filled in; no redirect set: the code.
 * The short code is given whenever the browser is not sent elsewhere (MTurk too: the worker may be
 * asked for it), the signed token with it for integrations.
 */
export async function endOf(secret: string, input: EndInput): Promise<SessionEnd> {
  const { session, outcome } = input;
  const token = await signCompletionCode(
    secret,
    {
      sid: session.id,
      pid: session.project_id,
      cids: session.research_order,
      par: session.participant_id,
      outcome,
    },
    session.ended_at ?? undefined,
  );
  const code = formatShortCode(input.shortCode);
  const withCode = { outcome, code, token, redirect_url: null, mturk: null };
  const platform = adapterOfProject(session.platform);
  if (platform) {
    const context = { withCode, panel: session.panel, participantId: session.participant_id };
    const own = platform.end
      ? platform.end({ ...context, researches: input.researches, data: input.platformData ?? {} })
      : withCode;
    if (own) return own;
  }
  const template = input.redirectLinks?.[outcome];
  if (!template) return withCode;
  return {
    ...withCode,
    code: null,
    redirect_url: fill(template, { participant_id: session.participant_id ?? '', status: outcome, code, token }),
  };
}

/** `{name}` placeholders filled with URL-encoded values; other text stays as it is. */
export function fill(template: string, values: Record<string, string>): string {
  return template.replace(/\{(\w+)\}/g, (whole, name: string) =>
    name in values ? encodeURIComponent(values[name] ?? '') : whole,
  );
}
