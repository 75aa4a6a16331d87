import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import type { Deps } from '../../context.ts';
import { sendWebhook } from './sender.ts';

/**
 * Messages and their delivery (decision 066). A message is one event for one endpoint, its body fixed when made
 * (`{type, timestamp, data}`), so every attempt sends the same bytes under the same `webhook-id`. Each attempt is one
 * job run: it signs the body with the endpoint's secret (Standard Webhooks: HMAC-SHA256 of `id.timestamp.body`),
 * posts it, logs the attempt and, when it failed, queues the next one after the configured delay. An endpoint whose
 * deliveries have all failed for WEBHOOKS_DISABLE_AFTER_HOURS is disabled; its pending messages end.
 */
export type DeliveryDeps = Pick<Deps, 'webhooks' | 'queue' | 'config' | 'log'>;

export const DELIVER_JOB = 'webhooks.deliver';

export interface WebhookEvent {
  type: string;
  /** What happened, once: an endpoint gets one message per key. */
  key: string;
  data: Record<string, unknown>;
}

const newMessageId = () => `msg_${randomBytes(16).toString('base64url')}`;

/** A message of `event` for each endpoint (none twice), each queued for its first attempt. The ids made. */
export async function queueMessages(deps: DeliveryDeps, endpointIds: string[], event: WebhookEvent) {
  const body = JSON.stringify({ type: event.type, timestamp: new Date().toISOString(), data: event.data });
  const ids = await deps.webhooks.addMessages(
    endpointIds,
    { eventType: event.type, eventKey: event.key, body },
    newMessageId,
  );
  for (const id of ids) await deps.queue.send(DELIVER_JOB, { message_id: id });
  return ids;
}

/** Tells the account's endpoints that chose this event. */
export async function emit(
  deps: DeliveryDeps,
  userId: string,
  event: WebhookEvent & { type: Parameters<Deps['webhooks']['subscribed']>[1] },
) {
  const endpoints = await deps.webhooks.subscribed(userId, event.type);
  return queueMessages(
    deps,
    endpoints.map((e) => e.id),
    event,
  );
}

/** One attempt to deliver the message; nothing when it is no longer pending (delivered, given up, or a repeat). */
export async function deliverMessage(deps: DeliveryDeps, messageId: string): Promise<void> {
  const message = await deps.webhooks.pendingMessage(messageId);
  if (!message) return;
  if (!message.enabled) {
    await deps.webhooks.dropPending(message.endpoint_id);
    return;
  }
  const settings = deps.config.webhooks;
  const attempt = message.attempts + 1;
  const now = new Date();
  const signature = new Webhook(message.secret).sign(message.id, now, message.body);
  const result = await sendWebhook(
    message.url,
    {
      'webhook-id': message.id,
      'webhook-timestamp': String(Math.floor(now.getTime() / 1000)),
      'webhook-signature': signature,
    },
    message.body,
    {
      timeoutMs: settings.timeoutMs,
      allowPrivateAddresses: settings.allowPrivateAddresses,
      allowHttp: settings.allowHttp,
    },
  );
  const succeeded = result.error === null;
  const delay = succeeded ? undefined : settings.retryDelaysMs[attempt - 1];
  const nextAttemptAt = delay === undefined ? null : new Date(Date.now() + delay);
  const recorded = await deps.webhooks.recordAttempt({
    messageId: message.id,
    endpointId: message.endpoint_id,
    attempt,
    statusCode: result.statusCode,
    error: result.error,
    durationMs: result.durationMs,
    succeeded,
    nextAttemptAt,
  });
  if (!recorded) return;
  if (succeeded) return;
  const failingSince = message.failing_since ?? now;
  if (Date.now() - failingSince.getTime() >= settings.disableAfterMs) {
    const cutoff = new Date(Date.now() - settings.disableAfterMs);
    if (await deps.webhooks.disableFailing(message.endpoint_id, cutoff)) {
      await deps.webhooks.dropPending(message.endpoint_id);
      deps.log.warn({ endpoint: message.endpoint_id }, 'webhook endpoint disabled: its deliveries failed for too long');
      return;
    }
  }
  if (nextAttemptAt) await deps.queue.send(DELIVER_JOB, { message_id: message.id }, { startAfter: nextAttemptAt });
}
