import type { WebhookEventType } from '@emolens/contracts';
import type { Generated } from 'kysely';
import type { Json, Timestamp } from './columns.ts';

/** An account's webhook endpoint (decision 066). */
export interface WebhookEndpointsTable {
  id: Generated<string>;
  user_id: string;
  url: string;
  description: Generated<string>;
  event_types: Json<WebhookEventType[]>;
  /** The sealed `whsec_…` secret (AES-256-GCM, bound to the row id). */
  secret: Uint8Array;
  secret_prefix: string;
  enabled: Generated<boolean>;
  disabled_reason: 'failing' | null;
  disabled_at: Date | null;
  failing_since: Date | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** One event made for one endpoint: its body as signed, retried until delivered or given up. */
export interface WebhookMessagesTable {
  /** The `webhook-id` header: `msg_…`, the same on every attempt. */
  id: string;
  endpoint_id: string;
  event_type: string;
  event_key: string;
  body: string;
  state: Generated<'pending' | 'succeeded' | 'failed'>;
  attempts: Generated<number>;
  next_attempt_at: Date | null;
  created_at: Timestamp;
}

/** One attempt to deliver a message: the endpoint's delivery log. */
export interface WebhookAttemptsTable {
  id: Generated<string>;
  message_id: string;
  endpoint_id: string;
  attempt: number;
  attempted_at: Timestamp;
  status_code: number | null;
  error: string | null;
  duration_ms: number;
  succeeded: boolean;
}
