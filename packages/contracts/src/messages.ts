import { ERROR_MESSAGES, type ErrorCode } from './errors.ts';
// The catalogue itself, every key with its English text (message-catalogue.ts).
import { CATALOGUE } from './message-catalogue.ts';

/** The message of each error code (errors.ts) is in the catalogue as `errors.<code>`. */
type ErrorEntries = { readonly [C in ErrorCode as `errors.${C}`]: (typeof ERROR_MESSAGES)[C] };
const errorEntries = Object.fromEntries(
  Object.entries(ERROR_MESSAGES).map(([code, text]) => [`errors.${code}`, text]),
) as ErrorEntries;

export const MESSAGES: typeof CATALOGUE & ErrorEntries = { ...CATALOGUE, ...errorEntries };
export type MessageKey = keyof typeof MESSAGES;

/** The parameter names of a template: 'between {first} and {second}' → 'first' | 'second'. */
type Placeholders<S extends string> = S extends `${string}{${infer P}}${infer Rest}` ? P | Placeholders<Rest> : never;
export type MessageParamValue = string | number;
export type MessageParams<K extends MessageKey> = Record<Placeholders<(typeof MESSAGES)[K]>, MessageParamValue>;
/** The parameters argument of a key: none for a plain message, required for a template. */
type ParamsArg<K extends MessageKey> = [Placeholders<(typeof MESSAGES)[K]>] extends [never] ? [] : [MessageParams<K>];

/** A message as data: what the API answers and the web app translates. */
export interface MessageRef {
  key: MessageKey;
  params?: Record<string, MessageParamValue>;
}

/**
 * A message reference written into a string, for the places that take a string: zod's custom
 * messages. Only `msg()` makes one and only `parseMessage()` reads one.
 */
export type Message = string & { readonly __message: true };

const PREFIX = '$msg:';

export function isMessageKey(key: unknown): key is MessageKey {
  return typeof key === 'string' && Object.hasOwn(MESSAGES, key);
}

/** A typed reference to a catalogue message: `ref('validation.between', { first: 0, second: 100 })`. */
export function ref<K extends MessageKey>(key: K, ...params: ParamsArg<K>): MessageRef {
  return params[0] ? { key, params: params[0] } : { key };
}

/** The same reference as a string, for zod: `z.string().max(255, msg('validation.maxChars', { max: 255 }))`. */
export function msg<K extends MessageKey>(key: K, ...params: ParamsArg<K>): Message {
  return `${PREFIX}${key}${params[0] ? JSON.stringify(params[0]) : ''}` as Message;
}

/** "must be between {first} and {second}" for a range's limits. */
export const msgBetween = (limits: { min: number; max: number }): Message =>
  msg('validation.between', { first: limits.min, second: limits.max });

function isParams(value: unknown): value is Record<string, MessageParamValue> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  return Object.values(value).every((v) => typeof v === 'string' || typeof v === 'number');
}

/** The reference `msg()` wrote into `text`; undefined for any other text. */
export function parseMessage(text: string): MessageRef | undefined {
  if (!text.startsWith(PREFIX)) return undefined;
  const body = text.slice(PREFIX.length);
  const brace = body.indexOf('{');
  const key = brace < 0 ? body : body.slice(0, brace);
  if (!isMessageKey(key)) return undefined;
  if (brace < 0) return { key };
  let params: unknown;
  try {
    params = JSON.parse(body.slice(brace));
  } catch {
    return undefined;
  }
  return isParams(params) ? { key, params } : undefined;
}

/** A reference from what an API answer carries, when it names a message of this catalogue. */
export function toMessageRef(value: unknown): MessageRef | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const { key, params } = value as { key?: unknown; params?: unknown };
  if (!isMessageKey(key)) return undefined;
  if (params === undefined) return { key };
  return isParams(params) ? { key, params } : undefined;
}

/** Fills a template's `{name}` parameters; numbers are written the way `locale` writes them. */
export function formatMessage(
  template: string,
  params: Record<string, MessageParamValue> | undefined,
  locale = 'en',
): string {
  if (!params) return template;
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => {
    const value = params[name];
    if (value === undefined) return whole;
    return typeof value === 'number' ? new Intl.NumberFormat(locale, { useGrouping: 'min2' }).format(value) : value;
  });
}

/** The English text of a message: what the API answers beside the key. */
export function englishMessage(message: MessageRef): string {
  return formatMessage(MESSAGES[message.key], message.params);
}

/** The message of an error code; 429s say in how many minutes to try again. */
export function codeMessage(code: ErrorCode, retryAfterSeconds?: number): MessageRef {
  if (retryAfterSeconds !== undefined && retryAfterSeconds < 60) {
    const seconds = Math.max(1, Math.ceil(retryAfterSeconds));
    if (code === 'too_many_requests') return ref('retry.requestsSeconds', { seconds });
    if (code === 'too_many_login_attempts') return ref('retry.loginSeconds', { seconds });
  }
  const key = `errors.${code}` as const;
  const template: string = MESSAGES[key];
  return template.includes('{minutes}')
    ? { key, params: { minutes: Math.max(1, Math.ceil((retryAfterSeconds ?? 60) / 60)) } }
    : { key };
}

/** What a zod issue carries (also as fastify-type-provider-zod passes it on: code and params). */
export interface IssueLike {
  code?: string;
  message?: string;
  origin?: string;
  expected?: string;
  format?: string;
  maximum?: number | bigint;
  minimum?: number | bigint;
}

/**
 * The message of a zod issue: the reference its schema gave, or, for a rule written without one
 * (`.max(64)`), the catalogue's message for the rule itself, so that every issue has a key.
 */
export function issueMessage(issue: IssueLike): MessageRef {
  const given = issue.message ? parseMessage(issue.message) : undefined;
  if (given) return given;
  const max = Number(issue.maximum);
  const min = Number(issue.minimum);
  switch (issue.code) {
    case 'too_big':
      if (issue.origin === 'string') return ref('validation.maxChars', { max });
      if (issue.origin === 'array' || issue.origin === 'set') return ref('validation.maxItems', { max });
      if (issue.origin === 'number' || issue.origin === 'bigint') return ref('validation.atMost', { max });
      break;
    case 'too_small':
      if (min === 1 && (issue.origin === 'string' || issue.origin === 'array')) return ref('validation.required');
      if (issue.origin === 'string') return ref('validation.minChars', { min });
      if (issue.origin === 'array' || issue.origin === 'set') return ref('validation.minItems', { min });
      if (issue.origin === 'number' || issue.origin === 'bigint') return ref('validation.atLeast', { min });
      break;
    case 'invalid_type':
      if (issue.expected === 'int') return ref('validation.wholeNumber');
      if (issue.expected === 'number') return ref('validation.number');
      break;
    case 'invalid_format':
      if (issue.format === 'url') return ref('validation.url');
      break;
    case 'invalid_value':
      return ref('validation.choice');
    case 'unrecognized_keys':
      return ref('validation.unknownField');
  }
  return ref('validation.invalid');
}
