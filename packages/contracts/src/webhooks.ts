import { z } from 'zod';
import { msg } from './messages.ts';

/**
 * Webhooks (issue 33, item 3; decision 066): an account's endpoints receive the events they chose, signed after the
 * Standard Webhooks specification (`webhook-id`, `webhook-timestamp`, `webhook-signature`). The signing secret
 * (`whsec_…`) is shown once, when the endpoint is made or its secret rotated.
 */
export const WEBHOOK_EVENT_TYPES = [
  'session.completed',
  'session.screened_out',
  'session.quota_full',
  'research.quota_filled',
  'recording.processed',
  'report.built',
  'self_service.state_changed',
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];
/** What the "send test event" button sends: to any endpoint, whatever it chose. */
export const WEBHOOK_TEST_EVENT = 'webhook.test';
/** Endpoints one account may hold. */
export const WEBHOOK_ENDPOINT_LIMIT = 20;
export const WEBHOOK_SECRET_PREFIX = 'whsec_';

const url = z
  .string(msg('validation.url'))
  .trim()
  .max(2000, msg('validation.maxChars', { max: 2000 }))
  .pipe(z.url({ protocol: /^https?$/, error: msg('validation.url') }));
const description = z
  .string(msg('validation.invalid'))
  .trim()
  .max(255, msg('validation.maxChars', { max: 255 }));
const eventTypes = z
  .array(z.enum(WEBHOOK_EVENT_TYPES, msg('validation.choice')), msg('validation.required'))
  .min(1, msg('validation.minItems', { min: 1 }))
  .max(WEBHOOK_EVENT_TYPES.length, msg('validation.maxItems', { max: WEBHOOK_EVENT_TYPES.length }))
  .transform((types) => WEBHOOK_EVENT_TYPES.filter((t) => types.includes(t)));

/** POST /api/users/webhooks/endpoints/ */
export const createWebhookEndpointInput = z.strictObject({
  url,
  description: description.default(''),
  event_types: eventTypes,
});
export type CreateWebhookEndpointInput = z.input<typeof createWebhookEndpointInput>;

/** PATCH /api/users/webhooks/endpoints/{id}/ — what is given changes. */
export const updateWebhookEndpointInput = z.strictObject({
  url: url.optional(),
  description: description.optional(),
  event_types: eventTypes.optional(),
  enabled: z.boolean(msg('validation.invalid')).optional(),
});
export type UpdateWebhookEndpointInput = z.input<typeof updateWebhookEndpointInput>;

export const webhookEndpointSchema = z.object({
  id: z.uuid(),
  url: z.string(),
  description: z.string(),
  event_types: z.array(z.enum(WEBHOOK_EVENT_TYPES)),
  enabled: z.boolean(),
  /** Set when the service disabled it: every delivery failed for days. Null when enabled or disabled by hand. */
  disabled_reason: z.enum(['failing']).nullable(),
  disabled_at: z.string().nullable(),
  /** Deliveries have failed since this moment (null: the last one succeeded, or none was made). */
  failing_since: z.string().nullable(),
  /** The secret's first characters, to tell it apart. */
  secret_prefix: z.string(),
  created_at: z.string(),
  can: z.object({ edit: z.boolean(), delete: z.boolean(), test: z.boolean() }),
});
export type WebhookEndpoint = z.infer<typeof webhookEndpointSchema>;

/** The endpoint made, or its secret rotated: the only answer that carries the secret. */
export const createdWebhookEndpointOutput = webhookEndpointSchema.extend({ secret: z.string() });
export type CreatedWebhookEndpoint = z.infer<typeof createdWebhookEndpointOutput>;

/** GET /api/users/webhooks/endpoints/ */
export const webhookEndpointListOutput = z.object({
  items: z.array(webhookEndpointSchema),
  event_types: z.array(z.enum(WEBHOOK_EVENT_TYPES)),
  can: z.object({ create: z.boolean() }),
});
export type WebhookEndpointList = z.infer<typeof webhookEndpointListOutput>;

/** One attempt to deliver a message to an endpoint. */
export const webhookAttemptSchema = z.object({
  id: z.uuid(),
  message_id: z.string(),
  event_type: z.string(),
  attempt: z.number().int(),
  attempted_at: z.string(),
  /** The answer's HTTP status, or null when none came (see `error`). */
  status_code: z.number().int().nullable(),
  /** Why no 2xx answer came: `timeout`, `address_not_allowed`, `connection`, `http_status`. */
  error: z.string().nullable(),
  duration_ms: z.number().int(),
  succeeded: z.boolean(),
  /** When the next attempt of this message is due (null: none follows). */
  next_attempt_at: z.string().nullable(),
});
export type WebhookAttempt = z.infer<typeof webhookAttemptSchema>;

/** GET /api/users/webhooks/endpoints/{id}/deliveries/ — newest first. */
export const webhookAttemptListOutput = z.object({ items: z.array(webhookAttemptSchema) });
export type WebhookAttemptList = z.infer<typeof webhookAttemptListOutput>;

/** POST …/test/ — the message queued. */
export const webhookTestOutput = z.object({ message_id: z.string() });
