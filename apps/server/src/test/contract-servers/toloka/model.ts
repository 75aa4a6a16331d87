/** The Toloka contract server's model: its records, answers and the checks of what it is sent (see server.ts). */
import { randomUUID } from 'node:crypto';

export const API = '/api/v1';
export const MAX_BODY_BYTES = 1 << 20;
export const MIN_REWARD = 0.005;
export const MAX_PAGE_LIMIT = 300;
export const DEFAULT_PAGE_LIMIT = 50;

export type Json = Record<string, unknown>;
export type FieldError = { code: string; message: string };

export type ContractPoolStatus = 'OPEN' | 'CLOSED' | 'ARCHIVED' | 'LOCKED';
export type ContractAssignmentStatus = 'ACTIVE' | 'SUBMITTED' | 'ACCEPTED' | 'REJECTED' | 'SKIPPED' | 'EXPIRED';
export type ContractOperationStatus = 'PENDING' | 'RUNNING' | 'SUCCESS' | 'FAIL';

export type ContractProject = Json & { id: string; output_spec_code_field: string | null };
export type ContractPool = Json & {
  id: string;
  project_id: string;
  status: ContractPoolStatus;
  last_close_reason?: string;
  reward_per_assignment: number;
  defaults: { default_overlap_for_new_task_suites: number; default_overlap_for_new_tasks?: number };
  mixer_config?: unknown;
};
export type ContractTask = Json & { id: string; pool_id: string; input_values: Json; overlap: number };
export type ContractAssignment = Json & {
  id: string;
  pool_id: string;
  user_id: string;
  status: ContractAssignmentStatus;
  reward: number;
  public_comment?: string;
};
export type ContractOperation = Json & {
  id: string;
  type: string;
  status: ContractOperationStatus;
  submitted: string;
  started?: string;
  finished?: string;
  progress: number;
  parameters: { pool_id: string };
};

/** One logged request: never its headers, so never the token. */
export type ContractRequest = {
  method: string;
  path: string;
  query: Record<string, string>;
  body: unknown;
  auth: 'ok' | 'missing' | 'invalid';
  status: number;
};

export type Injection = {
  method: string | undefined;
  status: number;
  body: unknown;
  headers: Record<string, string>;
  delayMs: number;
};

export const VALIDATION = { code: 'VALIDATION_ERROR', message: 'Validation failed' } as const;
export const DEFAULT_ERROR_CODES: Record<number, string> = {
  400: 'VALIDATION_ERROR',
  401: 'AUTHENTICATION_ERROR',
  403: 'ACCESS_DENIED',
  404: 'DOES_NOT_EXIST',
  409: 'CONFLICT_STATE',
  429: 'TOO_MANY_REQUESTS',
  500: 'INTERNAL_ERROR',
  503: 'REMOTE_SERVICE_UNAVAILABLE',
};

/** Toloka's timestamp form: UTC, `YYYY-MM-DDThh:mm:ss.sss`, no zone suffix. */
export const stamp = (ms: number = Date.now()) => new Date(ms).toISOString().replace(/Z$/, '');

export const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Normalises '/requester' and '/api/v1/requester' to the same key. */
export const apiPath = (path: string) =>
  path.startsWith('/api/') ? path : `${API}${path.startsWith('/') ? '' : '/'}${path}`;

export class HttpAnswer {
  constructor(
    readonly status: number,
    readonly body: unknown,
    readonly headers: Record<string, string> = {},
  ) {}
}

export function errorAnswer(status: number, code: string, message: string, payload?: unknown): HttpAnswer {
  const body: Json = { request_id: randomUUID(), code, message };
  if (payload !== undefined) body.payload = payload;
  return new HttpAnswer(status, body);
}

/** Collects per-field validation errors the way Toloka reports them. */
export class Check {
  readonly errors: Record<string, FieldError> = {};

  add(path: string, code: string, message: string) {
    if (!this.errors[path]) this.errors[path] = { code, message };
  }

  required(obj: Json, key: string, prefix = ''): unknown {
    const value = obj[key];
    if (value === undefined || value === null)
      this.add(prefix + key, 'VALUE_REQUIRED', 'Value must be present and not equal to null');
    return value;
  }

  string(obj: Json, key: string, opts: { required?: boolean; max?: number; notBlank?: boolean } = {}, prefix = '') {
    const value = opts.required ? this.required(obj, key, prefix) : obj[key];
    if (value === undefined || value === null) return undefined;
    if (typeof value !== 'string') return this.add(prefix + key, 'STRING_EXPECTED', 'String value expected');
    if (opts.notBlank && value.trim() === '')
      return this.add(prefix + key, 'BLANK_STRING_NOT_ALLOWED', 'Blank string not allowed');
    if (opts.max !== undefined && value.length > opts.max) {
      return this.add(prefix + key, 'STRING_LENGTH_GREATER_THAN_MAX', `String length must not exceed ${opts.max}`);
    }
    return value;
  }

  boolean(obj: Json, key: string, required: boolean, prefix = '') {
    const value = required ? this.required(obj, key, prefix) : obj[key];
    if (value !== undefined && value !== null && typeof value !== 'boolean') {
      this.add(prefix + key, 'BOOLEAN_EXPECTED', 'Boolean value expected');
    }
  }

  number(
    obj: Json,
    key: string,
    opts: { required?: boolean; integer?: boolean; min?: number; max?: number },
    prefix = '',
  ) {
    const value = opts.required ? this.required(obj, key, prefix) : obj[key];
    if (value === undefined || value === null) return;
    if (typeof value !== 'number' || !Number.isFinite(value)) {
      return this.add(prefix + key, opts.integer ? 'INTEGER_EXPECTED' : 'FLOAT_EXPECTED', 'Number expected');
    }
    if (opts.integer && !Number.isInteger(value)) return this.add(prefix + key, 'INTEGER_EXPECTED', 'Integer expected');
    if (opts.min !== undefined && value < opts.min) {
      return this.add(prefix + key, 'VALUE_LESS_THAN_MIN', `Value must be greater than or equal to ${opts.min}`);
    }
    if (opts.max !== undefined && value > opts.max) {
      return this.add(prefix + key, 'VALUE_GREATER_THAN_MAX', `Value must be less than or equal to ${opts.max}`);
    }
  }

  object(obj: Json, key: string, required: boolean, prefix = ''): Json | undefined {
    const value = required ? this.required(obj, key, prefix) : obj[key];
    if (value === undefined || value === null) return undefined;
    if (!isObject(value)) {
      this.add(prefix + key, 'OBJECT_EXPECTED', 'Object expected');
      return undefined;
    }
    return value;
  }

  enumOf(obj: Json, key: string, allowed: readonly string[], required: boolean, prefix = '') {
    const value = required ? this.required(obj, key, prefix) : obj[key];
    if (value === undefined || value === null) return;
    if (typeof value !== 'string' || !allowed.includes(value)) {
      this.add(prefix + key, 'UNKNOWN_ENUM_VALUE', `Value must be one of ${allowed.join(', ')}`);
    }
  }

  get failed() {
    return Object.keys(this.errors).length > 0;
  }

  answer(): HttpAnswer {
    return errorAnswer(400, VALIDATION.code, VALIDATION.message, this.errors);
  }
}

export const FIELD_TYPES = ['url', 'boolean', 'integer', 'string', 'float', 'json', 'file', 'coordinates'] as const;
export const FILTER_OPERATORS = ['EQ', 'NE', 'GT', 'LT', 'GTE', 'LTE', 'IN', 'NOT_IN'] as const;
export const ASSIGNMENT_STATUSES: readonly ContractAssignmentStatus[] = [
  'ACTIVE',
  'SUBMITTED',
  'ACCEPTED',
  'REJECTED',
  'SKIPPED',
  'EXPIRED',
];
/** Statuses that hold a slot of a task's overlap. */
export const TAKEN: readonly ContractAssignmentStatus[] = ['ACTIVE', 'SUBMITTED', 'ACCEPTED'];

export function checkFilter(check: Check, node: unknown, path: string) {
  if (!isObject(node)) return check.add(path, 'OBJECT_EXPECTED', 'Object expected');
  const keys = Object.keys(node);
  if ('and' in node || 'or' in node) {
    const op = 'and' in node ? 'and' : 'or';
    const list = node[op];
    if (keys.length !== 1) return check.add(path, 'MAX_ONE_PROPERTY_ALLOWED', 'Only one of and/or allowed');
    if (!Array.isArray(list) || list.length === 0)
      return check.add(`${path}.${op}`, 'ARRAY_EXPECTED', 'Non-empty array expected');
    list.forEach((child, i) => {
      checkFilter(check, child, `${path}.${op}[${i}]`);
    });
    return;
  }
  check.enumOf(node, 'category', ['profile', 'computed', 'skill'], true, `${path}.`);
  check.string(node, 'key', { required: true, notBlank: true }, `${path}.`);
  check.enumOf(node, 'operator', FILTER_OPERATORS, true, `${path}.`);
  if (!('value' in node)) check.add(`${path}.value`, 'VALUE_REQUIRED', 'Value must be present');
}

export function checkFieldSpecs(check: Check, specs: Json, path: string) {
  for (const [name, spec] of Object.entries(specs)) {
    if (!isObject(spec)) {
      check.add(`${path}.${name}`, 'OBJECT_EXPECTED', 'Object expected');
      continue;
    }
    check.enumOf(spec, 'type', FIELD_TYPES, true, `${path}.${name}.`);
  }
}

export function checkInputValue(check: Check, type: unknown, value: unknown, path: string) {
  const bad = (code: string, message: string) => check.add(path, code, message);
  switch (type) {
    case 'url':
      if (typeof value !== 'string' || !URL.canParse(value)) bad('INVALID_URL_SYNTAX', 'Valid URL expected');
      break;
    case 'string':
      if (typeof value !== 'string') bad('STRING_EXPECTED', 'String value expected');
      break;
    case 'integer':
      if (!Number.isInteger(value)) bad('INTEGER_EXPECTED', 'Integer expected');
      break;
    case 'float':
      if (typeof value !== 'number') bad('FLOAT_EXPECTED', 'Number expected');
      break;
    case 'boolean':
      if (typeof value !== 'boolean') bad('BOOLEAN_EXPECTED', 'Boolean value expected');
      break;
    case 'json':
      if (!isObject(value)) bad('JSON_EXPECTED', 'JSON object expected');
      break;
    default:
      break;
  }
}

/** The scriptable world behind the contract server. */

export function notFound(what: string, id: string) {
  return errorAnswer(404, 'DOES_NOT_EXIST', `${what} ${id} does not exist`);
}
