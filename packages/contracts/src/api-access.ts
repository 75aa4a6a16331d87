import { z } from 'zod';
import { msg } from './messages.ts';

/**
 * Personal API tokens (issue 14, spec sections 2, 3, 7): a user makes a token for a scope — today the report
 * builder's API (`/report_builder/api`) — and sends it as `Authorization: Token <token>`. The token is shown once
 * when it is made or rotated, stored hashed, and acts as its user within its scope.
 */
export const API_TOKEN_SCOPES = ['report_builder'] as const;
export type ApiTokenScope = (typeof API_TOKEN_SCOPES)[number];
/** Every token starts with this, so a leaked one is easy to recognise (and to tell from a session's `auth_token`). */
export const API_TOKEN_PREFIX = 'emo_';
/** Active tokens one user may hold. */
export const API_TOKEN_LIMIT = 20;

/** POST /api/users/api-access/access-api-token/ — a new token, or (`replace`) a new secret for an existing one. */
export const createApiTokenInput = z.strictObject({
  scope: z.enum(API_TOKEN_SCOPES, msg('validation.choice')),
  description: z
    .string(msg('validation.invalid'))
    .trim()
    .max(255, msg('validation.maxChars', { max: 255 }))
    .default(''),
  /** The last day the token works (a date, `YYYY-MM-DD`), or null: until revoked. */
  expires_at: z
    .string(msg('validation.date'))
    .regex(/^\d{4}-\d{2}-\d{2}$/, msg('validation.date'))
    .refine((s) => !Number.isNaN(Date.parse(`${s}T00:00:00Z`)), msg('validation.date'))
    .nullable()
    .default(null),
  /** An active token of the user to rotate: it stops working, and the new one keeps its description and scope. */
  replace: z.uuid(msg('validation.invalid')).nullable().default(null),
});
export type CreateApiTokenInput = z.input<typeof createApiTokenInput>;

export const apiTokenSchema = z.object({
  id: z.uuid(),
  scope: z.enum(API_TOKEN_SCOPES),
  description: z.string(),
  /** The token's first characters, to tell it apart; the rest is never shown again. */
  prefix: z.string(),
  created_at: z.string(),
  last_used_at: z.string().nullable(),
  expires_at: z.string().nullable(),
  expired: z.boolean(),
});
export type ApiToken = z.infer<typeof apiTokenSchema>;

/** The token made: the only answer that carries it whole. */
export const createdApiTokenOutput = apiTokenSchema.extend({ token: z.string() });
export type CreatedApiToken = z.infer<typeof createdApiTokenOutput>;

/** GET /api/users/api-access/tokens/ — the user's tokens that are not revoked, newest first. */
export const apiTokenListOutput = z.object({
  items: z.array(apiTokenSchema),
  can: z.object({ create: z.boolean() }),
});
export type ApiTokenList = z.infer<typeof apiTokenListOutput>;
