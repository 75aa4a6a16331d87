import {
  type ApiError,
  codeMessage,
  ERROR_CODES,
  type ErrorCode,
  englishMessage,
  issueMessage,
  type MessageKey,
  type MessageRef,
  ref,
} from '@emolens/contracts';
import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';

/** A message of the catalogue: its key alone, or a reference with parameters (`ref(key, params)`). */
export type AppMessage = MessageKey | MessageRef;
const toRef = (message: AppMessage): MessageRef => (typeof message === 'string' ? { key: message } : message);

/**
 * An error the API answers as `{ code, message, key, params?, fields?, field_keys? }` with the code's
 * HTTP status: messages are catalogue keys, answered with their English text beside them.
 */
export class AppError extends Error {
  readonly code: ErrorCode;
  readonly ref: MessageRef;
  /** English text per field path. */
  readonly fields: Record<string, string> | undefined;
  /** The catalogue message of each field of `fields`. */
  readonly fieldRefs: Record<string, MessageRef> | undefined;
  readonly retryAfter: number | undefined;

  constructor(
    code: ErrorCode,
    options: { message?: AppMessage; fields?: Record<string, AppMessage>; retryAfter?: number } = {},
  ) {
    const message = options.message ? toRef(options.message) : codeMessage(code, options.retryAfter);
    super(englishMessage(message));
    this.code = code;
    this.ref = message;
    this.fieldRefs = options.fields
      ? Object.fromEntries(Object.entries(options.fields).map(([path, field]) => [path, toRef(field)]))
      : undefined;
    this.fields = this.fieldRefs
      ? Object.fromEntries(Object.entries(this.fieldRefs).map(([path, field]) => [path, englishMessage(field)]))
      : undefined;
    this.retryAfter = options.retryAfter;
  }

  /** Named as Fastify and its plugins expect. */
  get statusCode(): number {
    return ERROR_CODES[this.code];
  }

  toJSON(): ApiError {
    const body: ApiError = { code: this.code, message: this.message, key: this.ref.key };
    if (this.ref.params) body.params = this.ref.params;
    if (this.fields) body.fields = this.fields;
    if (this.fieldRefs) body.field_keys = this.fieldRefs;
    if (this.retryAfter !== undefined) body.retry_after = this.retryAfter;
    return body;
  }
}

/** One issue as fastify-type-provider-zod reports it: the zod issue code as `keyword`, the rest in `params`. */
interface ValidationIssue {
  keyword?: string;
  instancePath?: string;
  message?: string;
  params?: { keys?: string[]; origin?: string; expected?: string; format?: string; maximum?: number; minimum?: number };
}

/** Turns a zod validation failure into field messages; unknown keys get their own code. */
function fromValidation(issues: ValidationIssue[]): AppError {
  const fields: Record<string, MessageRef> = {};
  let unknown = false;
  for (const issue of issues) {
    const path = (issue.instancePath ?? '').replace(/^\//, '').replaceAll('/', '.');
    if (issue.keyword === 'unrecognized_keys') {
      unknown = true;
      for (const key of issue.params?.keys ?? [])
        fields[path ? `${path}.${key}` : key] = ref('validation.unknownField');
      continue;
    }
    fields[path || '_'] ??= issueMessage({ ...issue.params, code: issue.keyword, message: issue.message });
  }
  return unknown ? new AppError('unknown_fields', { fields }) : new AppError('validation_failed', { fields });
}

/**
 * Database errors caused by the data a client sent (SQLSTATE), a safety net behind the contracts and
 * the edge rule for text: they answer 4xx, with the generic message of their code.
 */
const CLIENT_DATA_ERRORS: Record<string, ErrorCode> = {
  '22P02': 'bad_request', // invalid text representation (e.g. not a uuid)
  '22001': 'bad_request', // string data right truncation
  '22003': 'bad_request', // numeric value out of range
  '22007': 'bad_request', // invalid datetime format
  '22008': 'bad_request', // datetime field overflow
  '22025': 'bad_request', // invalid escape sequence
  '22021': 'invalid_text', // invalid byte sequence for the encoding (U+0000 in text)
  '22P05': 'invalid_text', // untranslatable character (U+0000 in jsonb)
  '54000': 'bad_request', // program limit exceeded (e.g. a value too large for an index)
  '23503': 'conflict', // foreign key violation: what the request refers to was deleted meanwhile
};

/** A PostgreSQL error as pg and PGlite raise it: a five-character SQLSTATE and a severity. */
function clientDataError(err: Error): ErrorCode | undefined {
  const { code, severity } = err as { code?: unknown; severity?: unknown };
  if (typeof code !== 'string' || typeof severity !== 'string') return undefined;
  return CLIENT_DATA_ERRORS[code];
}

/** Transport errors of a database that does not answer. */
const DATABASE_UNREACHABLE = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENOTFOUND']);

/**
 * The database cannot be reached (down, restarting, refusing connections, a connection cut): the request may be
 * tried again, so it answers 503, never 500. SQLSTATE class 08 (connection exception), 57P01–57P03 (shut down,
 * starting up), and the pg driver's own words for a connection it lost, which carry no code.
 */
function databaseUnavailable(err: Error): boolean {
  const { code } = err as { code?: unknown };
  if (typeof code === 'string') {
    if (DATABASE_UNREACHABLE.has(code) || code.startsWith('08') || /^57P0[123]$/.test(code)) return true;
    if (code === '55000' && err.message.includes('not currently accepting connections')) return true;
  }
  return /^Connection terminated|timeout exceeded when trying to connect|connection error and is not queryable/.test(
    err.message,
  );
}

function toAppError(err: FastifyError): AppError {
  if (err instanceof AppError) return err;
  if (databaseUnavailable(err)) return new AppError('service_unavailable', { message: 'database.unavailable' });
  if (hasZodFastifySchemaValidationErrors(err)) return fromValidation(err.validation as ValidationIssue[]);
  const dataError = clientDataError(err);
  if (dataError) return new AppError(dataError);
  switch (err.code) {
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return new AppError('invalid_json');
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new AppError('payload_too_large');
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return new AppError('unsupported_media_type');
  }
  if (err instanceof SyntaxError) return new AppError('invalid_json');
  const status = err.statusCode ?? 500;
  if (status === 429) return new AppError('too_many_requests');
  if (status === 404) return new AppError('not_found');
  if (status === 413) return new AppError('payload_too_large');
  if (status === 415) return new AppError('unsupported_media_type');
  if (status >= 400 && status < 500) return new AppError('bad_request');
  return new AppError('internal');
}

/**
 * Every error answers `{ code, message, fields? }` with the catalogue's message or one the code
 * chose: never the error's own message, a path, a stack or a driver's words. Those go to the log.
 */
export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((err: FastifyError, request, reply) => {
    const appError = toAppError(err);
    if (appError.statusCode >= 500) request.log.error({ err }, 'request failed');
    else if (clientDataError(err)) request.log.warn({ err, code: appError.code }, 'database refused the request data');
    else request.log.info({ code: appError.code }, 'request rejected');
    if (appError.retryAfter !== undefined) reply.header('retry-after', String(appError.retryAfter));
    return reply.status(appError.statusCode).send(appError.toJSON());
  });
}
