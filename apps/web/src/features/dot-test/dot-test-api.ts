import {
  DOT_TEST_API,
  type DotTestCompleteInput,
  type DotTestStartInput,
  type DotTestState,
  dotTestChunkOutput,
  dotTestEventBatchOutput,
  dotTestStartOutput,
  dotTestStateOutput,
  type EventBatchInput,
  RESPONDENT_API,
} from '@emolens/contracts';
import { z } from 'zod';
import { type RetryPolicy, respondentCall, sha256Hex } from '../respondent/respondent-api.ts';

const enc = encodeURIComponent;
/** The calls' paths below the respondent API's base (respondentCall adds it). */
const BASE = DOT_TEST_API.slice(RESPONDENT_API.length);

/**
 * The setup check's calls (`/r/dot-tests`, contract `packages/contracts/src/dot-test.ts`): the
 * respondent API's client (bearer secret, waits while the tab is hidden, retries what failed on the way).
 */
export const dotTestApi = {
  start: (input: DotTestStartInput) => respondentCall(BASE, dotTestStartOutput, { method: 'POST', json: input }),

  state: (id: string, secret: string): Promise<DotTestState> =>
    respondentCall(`${BASE}/${enc(id)}`, dotTestStateOutput, { secret }),

  putChunk: async (id: string, secret: string, index: number, data: ArrayBuffer, retry?: RetryPolicy) =>
    respondentCall(`${BASE}/${enc(id)}/chunks/${index}`, dotTestChunkOutput, {
      method: 'PUT',
      secret,
      raw: { body: data, headers: { 'x-chunk-sha256': await sha256Hex(data) } },
      retry,
    }),

  // The event log is the journey's; a check logs only the calibration's events, which is what the server accepts.
  events: (id: string, secret: string, batch: EventBatchInput, retry?: RetryPolicy) =>
    respondentCall(`${BASE}/${enc(id)}/events`, dotTestEventBatchOutput, {
      method: 'POST',
      secret,
      json: batch,
      retry,
    }),

  complete: (id: string, secret: string, input: DotTestCompleteInput) =>
    respondentCall(`${BASE}/${enc(id)}/complete`, dotTestStateOutput, { method: 'POST', secret, json: input }),

  remove: (id: string, secret: string) =>
    respondentCall(`${BASE}/${enc(id)}`, z.unknown(), {
      method: 'DELETE',
      secret,
      retry: { attempts: 2, baseDelayMs: 300, maxDelayMs: 300 },
    }),
};

const KEY = 'emolens.dotTest';

/** The check this browser ran last (only its holder sees the result). */
export const savedDotTest = {
  get(): { id: string; secret: string } | null {
    try {
      const value = JSON.parse(localStorage.getItem(KEY) ?? 'null') as { id?: unknown; secret?: unknown } | null;
      return typeof value?.id === 'string' && typeof value.secret === 'string'
        ? { id: value.id, secret: value.secret }
        : null;
    } catch {
      return null;
    }
  },
  set(id: string, secret: string): void {
    try {
      localStorage.setItem(KEY, JSON.stringify({ id, secret }));
    } catch {
      // Private mode: the result is shown on this page only.
    }
  },
  clear(): void {
    try {
      localStorage.removeItem(KEY);
    } catch {
      // Nothing kept.
    }
  },
};
