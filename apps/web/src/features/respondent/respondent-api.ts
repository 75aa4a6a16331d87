import {
  type ApiError,
  analysisSiteOutput,
  answersOutput,
  type CalibrationCheckInput,
  type CompleteSessionInput,
  calibrationCheckState,
  chunkOutput,
  type DeviceCheckInput,
  deviceTooSlowOutput,
  type EventBatchInput,
  eventBatchOutput,
  type LinkInfo,
  linkInfoOutput,
  RESPONDENT_API,
  type RespondentAnswersInput,
  type SEGMENT_MIME_TYPES,
  type SessionState,
  type StartSessionInput,
  type SurveySlot,
  sessionEndSchema,
  sessionStateOutput,
  startSegmentOutput,
  startSessionOutput,
  turnAwayOutput,
} from '@emolens/contracts';
import type { z } from 'zod';
import { ApiRequestError, whenVisible } from '../../api/client.ts';

/**
 * The browser's client of the public respondent API (`/r`, contract `packages/contracts/src/respondent.ts`):
 * no cookie, the session's secret as a bearer token. Spec section 7: a call waits while the tab is
 * hidden. A call that fails on the way (no network, 5xx, 429) is tried again with a growing pause;
 * an answer of the server that refuses it (4xx) is final. Answers are parsed with the contract.
 */

export interface RetryPolicy {
  /** Tries in all (1 = no retry). */
  attempts: number;
  /** Pause before the second try, ms; doubled on each following one up to `maxDelayMs`. */
  baseDelayMs: number;
  maxDelayMs: number;
}

/** Seven tries over ~24 s: an outage of a quarter of a minute costs nothing. */
export const DEFAULT_RETRY: RetryPolicy = { attempts: 7, baseDelayMs: 500, maxDelayMs: 8000 };

/** A call that failed on the way or with an answer saying "try later". */
export function isRetryable(error: unknown): boolean {
  return error instanceof ApiRequestError && (error.status === 0 || error.status === 429 || error.status >= 500);
}

export function retryDelay(policy: RetryPolicy, attempt: number, retryAfterSeconds?: number): number {
  const backoff = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** attempt);
  return Math.max(backoff, (retryAfterSeconds ?? 0) * 1000);
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

interface CallOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'DELETE';
  secret?: string;
  json?: unknown;
  raw?: { body: ArrayBuffer; headers: Record<string, string> };
  retry?: RetryPolicy;
}

/** One call with its retries. */
export async function respondentCall<S extends z.ZodType>(
  path: string,
  output: S,
  { method = 'GET', secret, json, raw, retry = DEFAULT_RETRY }: CallOptions = {},
): Promise<z.infer<S>> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await once(path, output, method, secret, json, raw);
    } catch (error) {
      if (!isRetryable(error) || attempt + 1 >= retry.attempts) throw error;
      await sleep(retryDelay(retry, attempt, (error as ApiRequestError).retryAfter));
    }
  }
}

async function once<S extends z.ZodType>(
  path: string,
  output: S,
  method: string,
  secret: string | undefined,
  json: unknown,
  raw: CallOptions['raw'],
): Promise<z.infer<S>> {
  await whenVisible();
  const headers: Record<string, string> = { accept: 'application/json' };
  if (secret) headers.authorization = `Bearer ${secret}`;
  let body: BodyInit | undefined;
  if (raw) {
    Object.assign(headers, raw.headers, { 'content-type': 'application/octet-stream' });
    body = raw.body;
  } else if (json !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(json);
  }
  let response: Response;
  try {
    // No cookie: the respondent API knows sessions by their secret only.
    response = await fetch(`${RESPONDENT_API}${path}`, { method, headers, body, credentials: 'omit' });
  } catch {
    throw new ApiRequestError(0, { code: 'service_unavailable' });
  }
  const payload: unknown = await response.json().catch(() => ({}));
  if (!response.ok) throw new ApiRequestError(response.status, payload as Partial<ApiError>);
  return output.parse(payload);
}

/** SHA-256 of the bytes, hex (the chunk's `x-chunk-sha256`). */
export async function sha256Hex(data: ArrayBuffer): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', data);
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('');
}

const enc = encodeURIComponent;

/** The calls of the respondent journey. */
export const respondentApi = {
  link: (token: string): Promise<LinkInfo> => respondentCall(`/links/${enc(token)}`, linkInfoOutput),

  /** The start page turned the respondent away at a full quota: the server counts it under "Quota full". */
  turnedAway: (token: string) =>
    respondentCall(`/links/${enc(token)}/turned-away`, turnAwayOutput, {
      method: 'POST',
      retry: { attempts: 3, baseDelayMs: 500, maxDelayMs: 2000 },
    }),

  start: (token: string, input: StartSessionInput) =>
    respondentCall(`/links/${enc(token)}/sessions`, startSessionOutput, { method: 'POST', json: input }),

  session: (id: string, secret: string): Promise<SessionState> =>
    respondentCall(`/sessions/${enc(id)}`, sessionStateOutput, { secret }),

  startSegment: (
    id: string,
    secret: string,
    input: { mime_type: (typeof SEGMENT_MIME_TYPES)[number]; screen: StartSessionInput['screen'] },
  ) => respondentCall(`/sessions/${enc(id)}/segments`, startSegmentOutput, { method: 'POST', secret, json: input }),

  putChunk: async (
    id: string,
    secret: string,
    segment: number,
    index: number,
    data: ArrayBuffer,
    retry?: RetryPolicy,
  ) =>
    respondentCall(`/sessions/${enc(id)}/segments/${segment}/chunks/${index}`, chunkOutput, {
      method: 'PUT',
      secret,
      raw: { body: data, headers: { 'x-chunk-sha256': await sha256Hex(data) } },
      retry,
    }),

  events: (id: string, secret: string, batch: EventBatchInput, retry?: RetryPolicy) =>
    respondentCall(`/sessions/${enc(id)}/events`, eventBatchOutput, { method: 'POST', secret, json: batch, retry }),

  /** The answers of the session's screener or survey so far; `final` sends them. */
  answers: (id: string, secret: string, slot: SurveySlot, input: RespondentAnswersInput, retry?: RetryPolicy) =>
    respondentCall(`/sessions/${enc(id)}/surveys/${slot}/answers`, answersOutput, {
      method: 'PUT',
      secret,
      json: input,
      retry,
    }),

  complete: (id: string, secret: string, input: CompleteSessionInput) =>
    respondentCall(`/sessions/${enc(id)}/complete`, sessionEndSchema, { method: 'POST', secret, json: input }),

  /** Everything through the calibration's validation is sent: the server checks it (idempotent per attempt). */
  calibrationCheck: (id: string, secret: string, input: CalibrationCheckInput, retry?: RetryPolicy) =>
    respondentCall(`/sessions/${enc(id)}/calibration-checks`, calibrationCheckState, {
      method: 'POST',
      secret,
      json: input,
      retry,
    }),

  calibrationCheckState: (id: string, secret: string, attempt: number, retry?: RetryPolicy) =>
    respondentCall(`/sessions/${enc(id)}/calibration-checks/${attempt}`, calibrationCheckState, { secret, retry }),

  /** Privacy mode: the frames a second the device analysed during the face check; answers where the analysis runs. */
  deviceCheck: (id: string, secret: string, input: DeviceCheckInput) =>
    respondentCall(`/sessions/${enc(id)}/device-check`, analysisSiteOutput, { method: 'POST', secret, json: input }),

  /** Privacy mode, a device too slow: the respondent chose to send the video instead. */
  analysisSite: (id: string, secret: string) =>
    respondentCall(`/sessions/${enc(id)}/analysis-site`, analysisSiteOutput, {
      method: 'POST',
      secret,
      json: { site: 'server' },
    }),

  /** Privacy mode, a device too slow: the session ends politely; answers its end. */
  deviceTooSlow: (id: string, secret: string) =>
    respondentCall(`/sessions/${enc(id)}/device-too-slow`, deviceTooSlowOutput, { method: 'POST', secret }),

  leave: (id: string, secret: string, reason: 'camera_lost' | 'left' | 'orientation') =>
    respondentCall(`/sessions/${enc(id)}/leave`, sessionStateOutput, {
      method: 'POST',
      secret,
      json: { reason },
      retry: { attempts: 2, baseDelayMs: 300, maxDelayMs: 300 },
    }),
};

export type RespondentApi = typeof respondentApi;

/**
 * A respondent turned away at a full quota is counted once per browser and link: a reload of the closed page is
 * not another respondent. Remembered only once the server has counted it; a failure is not the respondent's
 * concern (the page says the same either way).
 */
export async function countTurnAway(token: string, api: Pick<RespondentApi, 'turnedAway'> = respondentApi) {
  const key = `emolens.respondent.turned-away.${token}`;
  try {
    if (localStorage.getItem(key)) return;
    await api.turnedAway(token);
    localStorage.setItem(key, '1');
  } catch {
    // Not counted: private mode, or the server could not be reached.
  }
}
