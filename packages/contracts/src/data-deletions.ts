import { z } from 'zod';
import { msg } from './messages.ts';

/**
 * Deleting respondent data of a project (design section 6: withdrawing consent deletes the
 * respondent's recording and results), and the record every deletion leaves.
 */

/**
 * How the analyst names the respondent: the panel's participant id (may match several sessions),
 * a session id, or the completion code the respondent quoted (the consent policy offers both).
 */
export const DELETION_IDENTIFIER_KINDS = ['participant_id', 'session_id', 'completion_code'] as const;
export type DeletionIdentifierKind = (typeof DELETION_IDENTIFIER_KINDS)[number];

export const DELETION_REASONS = ['consent_withdrawn', 'retention'] as const;
export type DeletionReason = (typeof DELETION_REASONS)[number];

/** Whole sessions (withdrawal, delete after N days) or only their recordings (delete after processing). */
export const DELETION_SCOPES = ['sessions', 'recordings'] as const;
export type DeletionScope = (typeof DELETION_SCOPES)[number];

const required = msg('validation.required');
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** POST /api/cabinet/projects/{id}/respondent-data/delete/ */
export const deleteRespondentDataInput = z
  .strictObject({
    identifier_kind: z.enum(DELETION_IDENTIFIER_KINDS, { error: required }),
    identifier: z
      .string({ error: required })
      .trim()
      .min(1, required)
      .max(2000, msg('validation.maxChars', { max: 2000 })),
  })
  .superRefine((value, issues) => {
    if (value.identifier_kind === 'session_id' && !UUID.test(value.identifier)) {
      issues.addIssue({ code: 'custom', path: ['identifier'], message: msg('deletion.sessionIdInvalid') });
    }
    if (value.identifier_kind === 'participant_id' && value.identifier.length > 255) {
      issues.addIssue({ code: 'custom', path: ['identifier'], message: msg('validation.maxChars', { max: 255 }) });
    }
  });
export type DeleteRespondentDataInput = z.input<typeof deleteRespondentDataInput>;

export const dataDeletionSchema = z.object({
  id: z.string(),
  created_at: z.string(),
  reason: z.enum(DELETION_REASONS),
  scope: z.enum(DELETION_SCOPES),
  /** The analyst who deleted; null for the retention job or a user since removed. */
  user: z.object({ public_user_id: z.string(), name: z.string() }).nullable(),
  identifier_kind: z.enum(DELETION_IDENTIFIER_KINDS).nullable(),
  /** What the analyst typed (for a completion code: the session id it names). */
  identifier: z.string().nullable(),
  session_count: z.number(),
});
export type DataDeletion = z.infer<typeof dataDeletionSchema>;

export const deleteRespondentDataOutput = z.object({ deleted_sessions: z.number(), deletion: dataDeletionSchema });
export type DeleteRespondentDataResult = z.infer<typeof deleteRespondentDataOutput>;

/** GET /api/cabinet/projects/{id}/data-deletions/ — newest first. */
export const DATA_DELETIONS_PAGE = 50;
export const dataDeletionsOutput = z.object({ items: z.array(dataDeletionSchema), total: z.number() });
export type DataDeletionList = z.infer<typeof dataDeletionsOutput>;
