import { randomBytes } from 'node:crypto';
import {
  type CreatedWebhookEndpoint,
  type createWebhookEndpointInput,
  ref,
  type updateWebhookEndpointInput,
  WEBHOOK_ENDPOINT_LIMIT,
  WEBHOOK_EVENT_TYPES,
  WEBHOOK_SECRET_PREFIX,
  WEBHOOK_TEST_EVENT,
  type WebhookAttemptList,
  type WebhookEndpoint,
  type WebhookEndpointList,
} from '@emolens/contracts';
import type { z } from 'zod';
import type { Deps } from '../../context.ts';
import { isUuid } from '../../db/sql.ts';
import type { User } from '../../db/types.ts';
import { AppError } from '../../http/errors.ts';
import { AddressNotAllowedError, checkedAddresses, hostOf } from './address-guard.ts';
import { queueMessages } from './webhooks.delivery.ts';
import type { WebhooksRepository } from './webhooks.repository.ts';

/**
 * Webhook endpoints (issue 33, item 3; decision 066). An account is a cabinet user, as for API tokens: an endpoint
 * is its user's, receives the events of the projects that user owns, and is seen and changed by nobody else (another
 * user's endpoint is "not found"). Every cabinet role may keep endpoints. The secret is shown once, when the endpoint
 * is made or its secret rotated.
 */
export type WebhooksDeps = Pick<Deps, 'webhooks' | 'queue' | 'config' | 'log'>;

type Row = Awaited<ReturnType<WebhooksRepository['list']>>[number];

/** How many attempts the delivery log shows. */
export const LOG_LIMIT = 100;

function toEndpoint(row: Row): WebhookEndpoint {
  return {
    id: row.id,
    url: row.url,
    description: row.description,
    event_types: row.event_types,
    enabled: row.enabled,
    disabled_reason: row.disabled_reason,
    disabled_at: row.disabled_at?.toISOString() ?? null,
    failing_since: row.failing_since?.toISOString() ?? null,
    secret_prefix: row.secret_prefix,
    created_at: row.created_at.toISOString(),
    can: { edit: true, delete: true, test: row.enabled },
  };
}

/** A Standard Webhooks secret: `whsec_` and 24 random bytes in base64. */
function newSecret(): { secret: string; prefix: string } {
  const secret = `${WEBHOOK_SECRET_PREFIX}${randomBytes(24).toString('base64')}`;
  return { secret, prefix: secret.slice(0, WEBHOOK_SECRET_PREFIX.length + 4) };
}

/** The URL may be used: https (http when the operator allows it), and no internal address behind its host. */
async function checkUrl(deps: WebhooksDeps, value: string): Promise<void> {
  const url = new URL(value);
  const { allowHttp, allowPrivateAddresses } = deps.config.webhooks;
  if (url.protocol !== 'https:' && !(allowHttp && url.protocol === 'http:')) {
    throw new AppError('validation_failed', { fields: { url: 'webhook.httpsRequired' } });
  }
  if (url.username || url.password) throw new AppError('validation_failed', { fields: { url: 'validation.url' } });
  try {
    await checkedAddresses(hostOf(url), allowPrivateAddresses);
  } catch (err) {
    const key = err instanceof AddressNotAllowedError ? 'webhook.addressNotAllowed' : 'webhook.hostUnresolved';
    throw new AppError('validation_failed', { fields: { url: key } });
  }
}

async function load(deps: WebhooksDeps, user: User, id: string): Promise<Row> {
  const row = isUuid(id) ? await deps.webhooks.find(user.id, id) : undefined;
  if (!row) throw new AppError('not_found', { message: 'webhook.notFound' });
  return row;
}

/** GET /api/users/webhooks/endpoints/ */
export async function listEndpoints(deps: WebhooksDeps, user: User): Promise<WebhookEndpointList> {
  const rows = await deps.webhooks.list(user.id);
  return {
    items: rows.map(toEndpoint),
    event_types: [...WEBHOOK_EVENT_TYPES],
    can: { create: rows.length < WEBHOOK_ENDPOINT_LIMIT },
  };
}

/** POST /api/users/webhooks/endpoints/ — the answer is the only place the secret appears. */
export async function createEndpoint(
  deps: WebhooksDeps,
  user: User,
  input: z.infer<typeof createWebhookEndpointInput>,
): Promise<CreatedWebhookEndpoint> {
  if ((await deps.webhooks.count(user.id)) >= WEBHOOK_ENDPOINT_LIMIT) {
    throw new AppError('invalid_state', { message: ref('webhook.limit', { max: WEBHOOK_ENDPOINT_LIMIT }) });
  }
  await checkUrl(deps, input.url);
  const { secret, prefix } = newSecret();
  const row = await deps.webhooks.create(user.id, {
    url: input.url,
    description: input.description,
    eventTypes: input.event_types,
    secret,
    prefix,
  });
  return { ...toEndpoint(row), secret };
}

/** PATCH /api/users/webhooks/endpoints/{id}/ */
export async function updateEndpoint(
  deps: WebhooksDeps,
  user: User,
  id: string,
  input: z.infer<typeof updateWebhookEndpointInput>,
): Promise<WebhookEndpoint> {
  await load(deps, user, id);
  if (input.url !== undefined) await checkUrl(deps, input.url);
  const row = await deps.webhooks.update(user.id, id, {
    ...(input.url !== undefined ? { url: input.url } : {}),
    ...(input.description !== undefined ? { description: input.description } : {}),
    ...(input.event_types !== undefined ? { eventTypes: input.event_types } : {}),
    ...(input.enabled !== undefined ? { enabled: input.enabled } : {}),
  });
  if (!row) throw new AppError('not_found', { message: 'webhook.notFound' });
  if (input.enabled === false) await deps.webhooks.dropPending(id);
  return toEndpoint(row);
}

/** POST …/rotate-secret/ — a new secret at once; the old one signs nothing more. */
export async function rotateSecret(deps: WebhooksDeps, user: User, id: string): Promise<CreatedWebhookEndpoint> {
  await load(deps, user, id);
  const { secret, prefix } = newSecret();
  const row = await deps.webhooks.rotateSecret(user.id, id, { secret, prefix });
  if (!row) throw new AppError('not_found', { message: 'webhook.notFound' });
  return { ...toEndpoint(row), secret };
}

/** DELETE /api/users/webhooks/endpoints/{id}/ — with its messages and log. */
export async function deleteEndpoint(deps: WebhooksDeps, user: User, id: string): Promise<void> {
  if (!isUuid(id) || !(await deps.webhooks.remove(user.id, id))) {
    throw new AppError('not_found', { message: 'webhook.notFound' });
  }
}

/** GET …/deliveries/ — the newest attempts, newest first. */
export async function listAttempts(deps: WebhooksDeps, user: User, id: string): Promise<WebhookAttemptList> {
  await load(deps, user, id);
  const rows = await deps.webhooks.attempts(id, LOG_LIMIT);
  return {
    items: rows.map((r) => ({
      id: r.id,
      message_id: r.message_id,
      event_type: r.event_type,
      attempt: r.attempt,
      attempted_at: r.attempted_at.toISOString(),
      status_code: r.status_code,
      error: r.error,
      duration_ms: r.duration_ms,
      succeeded: r.succeeded,
      next_attempt_at: r.next_attempt_at ? new Date(r.next_attempt_at).toISOString() : null,
    })),
  };
}

/** POST …/test/ — a `webhook.test` message to this endpoint, delivered (and retried) like any other. */
export async function sendTestEvent(deps: WebhooksDeps, user: User, id: string): Promise<{ message_id: string }> {
  const row = await load(deps, user, id);
  if (!row.enabled) throw new AppError('invalid_state', { message: 'webhook.disabled' });
  const [messageId] = await queueMessages(deps, [row.id], {
    type: WEBHOOK_TEST_EVENT,
    key: `test:${randomBytes(12).toString('hex')}`,
    data: { endpoint_id: row.id, message: 'A test event sent from the Emolens cabinet' },
  });
  if (!messageId) throw new AppError('conflict', { message: 'webhook.notFound' });
  return { message_id: messageId };
}
