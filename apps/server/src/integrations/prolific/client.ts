/**
 * Prolific REST client: the calls Emolens needs to recruit participants on Prolific (issue 33, item 2).
 *
 * Written from Prolific's public API documentation (docs.prolific.com, API reference):
 * - authentication: header `Authorization: Token <token>`; GET /api/v1/users/me/ "to test your token"
 *   (answers `{ id, email }`); errors 400, 401 (no valid token), 404, 405, 422 (validation), 429 (too many
 *   requests): https://docs.prolific.com/documentation/get-started/api-fundamentals ,
 *   https://docs.prolific.com/api-reference/users/get-user
 * - createStudy() — POST /api/v1/studies/ creates a draft (UNPUBLISHED) study: name, internal_name, description,
 *   external_study_url with the `{{%PROLIFIC_PID%}}`, `{{%STUDY_ID%}}`, `{{%SESSION_ID%}}` placeholders,
 *   prolific_id_option, completion_codes (`code`, `code_type`, `actor`, `actions`), total_available_places,
 *   estimated_completion_time (minutes), reward (the hundredth part of the workspace's currency),
 *   device_compatibility, peripheral_requirements: https://docs.prolific.com/api-reference/studies/the-study-object ,
 *   https://beta-docs.prolific.com/api-reference/studies/create-study
 * - getStudy() — GET /api/v1/studies/{id}/; transitionStudy() — POST /api/v1/studies/{id}/transition/
 *   `{ action: PUBLISH | PAUSE | START | STOP }`; statuses UNPUBLISHED, PUBLISHING, ACTIVE, SCHEDULED, PAUSED,
 *   AWAITING REVIEW, COMPLETED (stopping is final): the study object page above, and
 *   https://researcher-help.prolific.com/hc/en-gb/articles/360010963354-Pausing-stopping-a-study
 * - listSubmissions() — GET /api/v1/studies/{id}/submissions/ (`{ results, _links.next.href, meta }`).
 * - transitionSubmission() — POST /api/v1/submissions/{id}/transition/ `{ action: APPROVE }` or
 *   `{ action: REJECT, message (≥ 100 characters), rejection_category }`; idempotent; the submission id is what
 *   Prolific passes as `%SESSION_ID%`: https://docs.prolific.com/api-reference/submissions/transition-submission
 * - requestReturn() — POST /api/v1/submissions/{id}/request-return/ `{ request_return_reasons: [text] }`:
 *   https://docs.prolific.com/api-reference/submissions/request-submission-return
 * - error body `{ error: { status, error_code, title, detail, additional_information } }`.
 *
 * The token only ever goes into the Authorization header; it is scrubbed from every ProlificError.
 */
import type { z } from 'zod';
import {
  ErrorBodySchema,
  PROLIFIC_REJECTION_MIN_CHARS,
  type ProlificRejectionCategory,
  type ProlificStudy,
  type ProlificStudyInput,
  type ProlificStudyTransition,
  type ProlificSubmission,
  type ProlificUser,
  ReturnRequestSchema,
  StudySchema,
  SubmissionPageSchema,
  SubmissionTransitionSchema,
  UserSchema,
} from './schemas.ts';

export * from './schemas.ts';

export const PROLIFIC_URL = 'https://api.prolific.com';
const API_PREFIX = '/api/v1';
const MAX_RETRIES = 2;
/** Pages of submissions read at most (each of Prolific's default size). */
const MAX_PAGES = 100;

/**
 * Any failure of a Prolific call: `status` is the HTTP status (0: no answer), `code` Prolific's `error_code` as text,
 * `HTTP_<status>` without an error body, or NETWORK / BAD_RESPONSE; `title` and `detail` as Prolific gave them.
 */
export class ProlificError extends Error {
  override readonly name = 'ProlificError';
  readonly status: number;
  readonly code: string;
  readonly title: string | null;
  readonly detail: unknown;
  constructor(init: { status: number; code: string; message: string; title?: string | null; detail?: unknown }) {
    super(init.message);
    this.status = init.status;
    this.code = init.code;
    this.title = init.title ?? null;
    this.detail = init.detail;
  }
  toJSON() {
    return { name: this.name, status: this.status, code: this.code, message: this.message, title: this.title };
  }
}

/** The token is not (or no longer) valid. */
export const isProlificAuthError = (error: unknown) => error instanceof ProlificError && error.status === 401;
/** Prolific is out of reach or asks to wait: nothing was done. */
export const isProlificUnavailable = (error: unknown) =>
  error instanceof ProlificError && (error.code === 'NETWORK' || error.status === 429 || error.status >= 500);

export type ProlificClientOptions = {
  /** PROLIFIC_URL or a test server; without the `/api/v1` part. */
  baseUrl: string;
  token: string;
  fetch?: typeof fetch;
  /** Per attempt. Default 15 s. */
  timeoutMs?: number;
  /** First back-off between retries (doubled after). Default 500 ms. */
  retryBaseDelayMs?: number;
};

type Method = 'GET' | 'POST';

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export type ProlificClient = ReturnType<typeof createProlificClient>;

/**
 * A Prolific client. 429 and 5xx answers to reads and to the (documented idempotent) transitions are retried at
 * most twice; a creation only on 429 (nothing was made); other 4xx never.
 */
export function createProlificClient(options: ProlificClientOptions) {
  const baseUrl = options.baseUrl.replace(/\/+$/, '');
  const { token } = options;
  const doFetch = options.fetch ?? globalThis.fetch;
  const timeoutMs = options.timeoutMs ?? 15_000;
  const retryBaseDelayMs = options.retryBaseDelayMs ?? 500;
  const scrub = (text: string) => (token ? text.split(token).join('[token]') : text);

  async function exchange(method: Method, url: string, body: unknown) {
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), timeoutMs);
    try {
      const headers: Record<string, string> = { Authorization: `Token ${token}`, Accept: 'application/json' };
      if (body !== undefined) headers['Content-Type'] = 'application/json';
      const res = await doFetch(url, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: controller.signal,
      });
      return { status: res.status, text: await res.text() };
    } catch (error) {
      const where = `${method} ${new URL(url).pathname}`;
      throw new ProlificError({
        status: 0,
        code: 'NETWORK',
        message: scrub(
          controller.signal.aborted
            ? `Prolific ${where} timed out after ${timeoutMs} ms`
            : `Prolific ${where} failed: ${error instanceof Error ? error.message : String(error)}`,
        ),
      });
    } finally {
      clearTimeout(timer);
    }
  }

  function errorOf(status: number, text: string, where: string): ProlificError {
    let json: unknown;
    try {
      json = text ? JSON.parse(text) : undefined;
    } catch {
      json = undefined;
    }
    const parsed = ErrorBodySchema.safeParse(json);
    if (!parsed.success) {
      return new ProlificError({ status, code: `HTTP_${status}`, message: `Prolific ${where}: HTTP ${status}` });
    }
    const e = parsed.data.error;
    const detail = typeof e.detail === 'string' ? scrub(e.detail) : e.detail;
    return new ProlificError({
      status,
      code: e.error_code === undefined ? `HTTP_${status}` : String(e.error_code),
      title: e.title ? scrub(e.title) : null,
      detail,
      message: scrub(`Prolific ${where}: HTTP ${status}${e.title ? ` ${e.title}` : ''}`),
    });
  }

  async function call<T>(method: Method, path: string, schema: z.ZodType<T>, body?: unknown, retryAll = true) {
    const url = path.startsWith('http') ? path : `${baseUrl}${API_PREFIX}${path}`;
    const where = `${method} ${new URL(url).pathname}`;
    for (let attempt = 0; ; attempt++) {
      const answer = await exchange(method, url, body).catch((error: ProlificError) => {
        if (attempt < MAX_RETRIES && retryAll) return null;
        throw error;
      });
      if (answer && answer.status >= 200 && answer.status < 300) {
        let json: unknown;
        try {
          json = JSON.parse(answer.text);
        } catch {
          throw new ProlificError({
            status: answer.status,
            code: 'BAD_RESPONSE',
            message: `Prolific ${where}: not JSON`,
          });
        }
        const parsed = schema.safeParse(json);
        if (!parsed.success) {
          throw new ProlificError({
            status: answer.status,
            code: 'BAD_RESPONSE',
            message: `Prolific ${where}: unexpected answer (${parsed.error.issues[0]?.path.join('.') ?? ''})`,
          });
        }
        return parsed.data;
      }
      if (answer) {
        const retry = answer.status === 429 || (retryAll && answer.status >= 500);
        if (!retry || attempt >= MAX_RETRIES) throw errorOf(answer.status, answer.text, where);
      }
      await sleep(retryBaseDelayMs * 2 ** attempt);
    }
  }

  return {
    /** Who the token belongs to: the check of a token being linked. */
    me: (): Promise<ProlificUser> => call('GET', '/users/me/', UserSchema),
    createStudy: (input: ProlificStudyInput): Promise<ProlificStudy> =>
      call('POST', '/studies/', StudySchema, input, false),
    getStudy: (id: string): Promise<ProlificStudy> => call('GET', `/studies/${encodeURIComponent(id)}/`, StudySchema),
    transitionStudy: (id: string, action: ProlificStudyTransition): Promise<ProlificStudy> =>
      call('POST', `/studies/${encodeURIComponent(id)}/transition/`, StudySchema, { action }),
    /** Every submission of the study, page after page. */
    async listSubmissions(studyId: string): Promise<ProlificSubmission[]> {
      const all: ProlificSubmission[] = [];
      let next: string | null = `/studies/${encodeURIComponent(studyId)}/submissions/`;
      for (let page = 0; next && page < MAX_PAGES; page++) {
        const answer: z.infer<typeof SubmissionPageSchema> = await call('GET', next, SubmissionPageSchema);
        all.push(...answer.results);
        const href = answer._links?.next?.href ?? null;
        // Only Prolific's own host (or the configured one) is followed.
        next = href && new URL(href, baseUrl).origin === new URL(baseUrl).origin ? new URL(href, baseUrl).href : null;
      }
      return all;
    },
    approve: (submissionId: string) =>
      call('POST', `/submissions/${encodeURIComponent(submissionId)}/transition/`, SubmissionTransitionSchema, {
        action: 'APPROVE',
      }),
    reject(submissionId: string, message: string, category: ProlificRejectionCategory) {
      if (message.length < PROLIFIC_REJECTION_MIN_CHARS) {
        throw new RangeError(`A rejection message has at least ${PROLIFIC_REJECTION_MIN_CHARS} characters`);
      }
      return call('POST', `/submissions/${encodeURIComponent(submissionId)}/transition/`, SubmissionTransitionSchema, {
        action: 'REJECT',
        message,
        rejection_category: category,
      });
    },
    requestReturn: (submissionId: string, reasons: string[]) =>
      call('POST', `/submissions/${encodeURIComponent(submissionId)}/request-return/`, ReturnRequestSchema, {
        request_return_reasons: reasons,
      }),
  };
}
