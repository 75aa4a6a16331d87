import {
  campaignSettingsSchema,
  type Outcome,
  type PanelParams,
  type Platform,
  type SessionEnd,
} from '@emolens/contracts';
import type { RedirectLinks } from '../../db/types.ts';
import { formatShortCode, signCompletionCode } from './completion-code.ts';

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
  redirectLinks: RedirectLinks;
}

/**
 * Where a respondent goes at the end (design section 6, spec section 3), per platform:
 * - Cint: the first research of the order with a Cint redirect for the outcome; `{RID}`/`{rid}` in it
 *   become the respondent's RID, otherwise `RID=` is appended. No redirect set: the code.
 * - MTurk: the browser POSTs the assignment id to `{turkSubmitTo}/mturk/externalSubmit`.
 * - Toloka and Yandex tasks: the code, which the worker pastes into the task.
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
  switch (session.platform) {
    case 'cint': {
      const template = input.researches
        .map((r) => campaignSettingsSchema.shape.cint_options.safeParse(settingsField(r.settings, 'cint_options')))
        .map((parsed) => (parsed.success ? parsed.data[outcome] : ''))
        .find((url) => !!url);
      if (!template) return withCode;
      return {
        outcome,
        code: null,
        token,
        redirect_url: cintRedirect(template, session.panel.RID ?? session.participant_id ?? ''),
        mturk: null,
      };
    }
    case 'amazon': {
      const { turkSubmitTo, assignmentId } = session.panel;
      if (!turkSubmitTo || !assignmentId) return withCode;
      return {
        outcome,
        code,
        token,
        redirect_url: null,
        mturk: { action: `${new URL(turkSubmitTo).origin}/mturk/externalSubmit`, assignment_id: assignmentId },
      };
    }
    case 'toloka':
    case 'yandex_tasks':
      return withCode;
    default: {
      const template = input.redirectLinks?.[outcome];
      if (!template) return withCode;
      return {
        outcome,
        code: null,
        token,
        redirect_url: fill(template, { participant_id: session.participant_id ?? '', status: outcome, code, token }),
        mturk: null,
      };
    }
  }
}

function settingsField(settings: unknown, key: string): unknown {
  return settings && typeof settings === 'object' ? (settings as Record<string, unknown>)[key] : undefined;
}

/** Cint's redirect: the RID in the `{RID}` (or `{rid}`) placeholder, or appended as `RID=`. */
export function cintRedirect(template: string, rid: string): string {
  const encoded = encodeURIComponent(rid);
  if (/\{rid\}/i.test(template)) return template.replace(/\{rid\}/gi, encoded);
  const hashAt = template.indexOf('#');
  const base = hashAt >= 0 ? template.slice(0, hashAt) : template;
  const hash = hashAt >= 0 ? template.slice(hashAt) : '';
  const sep = base.includes('?') ? (base.endsWith('?') || base.endsWith('&') ? '' : '&') : '?';
  return `${base}${sep}RID=${encoded}${hash}`;
}

/** `{name}` placeholders filled with URL-encoded values; other text stays as it is. */
export function fill(template: string, values: Record<string, string>): string {
  return template.replace(/\{(\w+)\}/g, (whole, name: string) =>
    name in values ? encodeURIComponent(values[name] ?? '') : whole,
  );
}
