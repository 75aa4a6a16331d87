import { z } from 'zod';
import { type Message, msg } from './messages.ts';
import { RECRUITING_ENVIRONMENTS, RECRUITING_PLATFORMS, type RecruitingPlatform } from './recruiting-base.ts';

/**
 * Toloka and Amazon Mechanical Turk tokens (issue 14, item 3; spec sections 2, 3, 5, 6, 8): a user links the
 * OAuth token of a Toloka requester or the access keys of an MTurk requester, checked against the service, to
 * recruit respondents with. A token is personal, or shared with other users by their public id; each user
 * picks one ACTIVE token per service among their own and those shared with them. The secret is stored
 * encrypted and never leaves the server again: answers carry a hint only (the Toloka token's last characters,
 * the Amazon access key id, which is not secret).
 */
/** The services a token is linked for: the recruiting platforms (`RECRUITING_PLATFORMS`), under their tokens' name. */
export const RECRUITING_SERVICES = RECRUITING_PLATFORMS;
export type RecruitingService = RecruitingPlatform;
/** Tokens of one service a user may link. */
export const RECRUITING_TOKEN_LIMIT = 20;
/** Characters of a Toloka token shown to tell it apart. */
export const TOLOKA_HINT_CHARS = 4;

const environment = z.enum(RECRUITING_ENVIRONMENTS, msg('validation.choice'));

/** A required text field of the link forms: trimmed, with the message the spec gives when it is missing. */
const requiredText = (missing: Message, max: number) =>
  z.string({ error: missing }).trim().min(1, missing).max(max, msg('validation.maxChars', { max }));

/** GET /api/cabinet/recruiting-tokens/?service= */
export const recruitingTokensQuery = z.strictObject({
  service: z.enum(RECRUITING_SERVICES, msg('validation.choice')),
});
export type RecruitingTokensQuery = z.input<typeof recruitingTokensQuery>;

/** POST /api/cabinet/recruiting-tokens/toloka/ — "token must have description" (spec section 5). */
export const linkTolokaTokenInput = z.strictObject({
  description: requiredText(msg('oauth.descriptionRequired'), 255),
  /** The requester's OAuth token (Toloka → Profile → Integrations). */
  token: requiredText(msg('validation.required'), 1024),
  environment,
});
export type LinkTolokaTokenInput = z.input<typeof linkTolokaTokenInput>;

/** POST /api/cabinet/recruiting-tokens/prolific/ — a Prolific API token (Prolific → API tokens); no sandbox. */
export const linkProlificTokenInput = z.strictObject({
  description: requiredText(msg('oauth.descriptionRequired'), 255),
  token: requiredText(msg('validation.required'), 1024),
  /** Prolific has one environment: its studies are real (a study stays a draft until published). */
  environment: z.literal('production', msg('validation.choice')).default('production'),
});
export type LinkProlificTokenInput = z.input<typeof linkProlificTokenInput>;

const amazonRequired = msg('oauth.amazonFieldsRequired');

/** POST /api/cabinet/recruiting-tokens/mturk/ — "Amazon needs all fields" (spec section 5). */
export const linkMturkTokenInput = z.strictObject({
  description: requiredText(amazonRequired, 255),
  /** An IAM access key id: not secret (AWS shows it in the console), stored and shown whole. */
  access_key_id: requiredText(amazonRequired, 128).regex(/^[A-Z0-9]{16,128}$/, msg('oauth.accessKeyFormat')),
  secret_access_key: requiredText(amazonRequired, 256),
  environment,
});
export type LinkMturkTokenInput = z.input<typeof linkMturkTokenInput>;

/** POST /api/cabinet/recruiting-tokens/{id}/shares/ — "share by user id" (spec section 6): a public user id. */
export const shareRecruitingTokenInput = z.strictObject({
  user_id: requiredText(msg('validation.required'), 32),
});
export type ShareRecruitingTokenInput = z.input<typeof shareRecruitingTokenInput>;

const person = z.object({ public_user_id: z.string(), username: z.string() });

export const recruitingTokenSchema = z.object({
  id: z.uuid(),
  service: z.enum(RECRUITING_SERVICES),
  environment: z.enum(RECRUITING_ENVIRONMENTS),
  description: z.string(),
  /** Toloka: the token's last characters; Amazon: the access key id. Never the secret. */
  hint: z.string(),
  owner: person,
  /** The user owns it (otherwise it is shared with them). */
  mine: z.boolean(),
  /** It is the user's active token of its service. */
  active: z.boolean(),
  /** Who the owner shared it with, and whether it is their active token; null to anyone but the owner. */
  shared_with: z.array(person.extend({ active: z.boolean(), can: z.object({ revoke: z.boolean() }) })).nullable(),
  created_at: z.string(),
  validated_at: z.string().nullable(),
  can: z.object({
    activate: z.boolean(),
    /** The owner's, and shared with nobody ("a token cannot be deleted while shared"). */
    delete: z.boolean(),
    share: z.boolean(),
    /** Some share can be revoked: one whose user does not have the token active. */
    revoke_share: z.boolean(),
  }),
});
export type RecruitingToken = z.infer<typeof recruitingTokenSchema>;

/** GET /api/cabinet/recruiting-tokens/?service= — the user's tokens and those shared with them, newest first. */
export const recruitingTokenListOutput = z.object({
  items: z.array(recruitingTokenSchema),
  can: z.object({ link: z.boolean() }),
});
export type RecruitingTokenList = z.infer<typeof recruitingTokenListOutput>;
