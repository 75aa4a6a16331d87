import { researchSettingsSchema } from '@emolens/contracts';
import type { RecruitingPlatformAdapter } from './platform.ts';

/**
 * Cint, a panel (spec sections 3, 5, 7), as far as its operations go: no pool of ours — the panel sends respondents
 * to the quota link with their RID — but the end of a session sends them back to the research's Cint redirect for
 * the outcome (`cint_options`), and the research's file tells the panel each process's RID and verdict
 * (GET /videoprocessor/campaigns-processes-list/cint-processes-statistic/{id}).
 */
export const cint = {
  projectPlatforms: ['cint'],
  /**
   * The first research of the order with a Cint redirect for the outcome; `{RID}`/`{rid}` in it become the
   * respondent's RID, otherwise `RID=` is appended. No redirect set: the code.
   */
  end({ withCode, panel, participantId, researches }) {
    const template = researches
      .map((r) => researchSettingsSchema.shape.cint_options.safeParse(settingsField(r.settings, 'cint_options')))
      .map((parsed) => (parsed.success ? parsed.data[withCode.outcome] : ''))
      .find((url) => !!url);
    if (!template) return withCode;
    return { ...withCode, code: null, redirect_url: cintRedirect(template, panel.RID ?? participantId ?? '') };
  },
  file: {
    filename: (title) => `${title} - Cint.csv`,
    columns: ['RID', 'session_id', 'status', 'usable', 'reason', 'bad_frame_share', 'completed_at'],
    line: (row) => [
      // The panel's RID; other panels' participant id (the same for a Cint link).
      row.rid ?? row.participant_id,
      row.session_id,
      row.status,
      row.usable === null ? null : row.usable ? 'yes' : 'no',
      // Why the session is not usable: the excluded reason, or the processing error.
      row.excluded_reason ?? row.error_code,
      row.bad_frame_share === null ? null : Number(row.bad_frame_share.toFixed(4)),
      row.ended_at ? row.ended_at.toISOString() : null,
    ],
  },
} satisfies RecruitingPlatformAdapter;

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
