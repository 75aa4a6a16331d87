/** The MTurk contract server's checks of a request's fields, its answer documents, ids and page tokens (see server.ts). */
import { createHash, randomBytes } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { EXTERNAL_QUESTION_NAMESPACE, escapeXml } from '../../../integrations/mturk/client.ts';
import {
  type ApiError,
  CONTRACT_OPERATIONS,
  type ContractAssignmentStatus,
  type ContractOperation,
  QUESTION_FORM_ANSWERS_NAMESPACE,
  requestError,
} from './types.ts';

/** The QuestionFormAnswers document MTurk stores for an ExternalQuestion form post: one FreeText per field. */
export function questionFormAnswersXml(fields: Record<string, string>): string {
  const answers = Object.entries(fields)
    .map(
      ([name, value]) =>
        `<Answer><QuestionIdentifier>${asciiXml(name)}</QuestionIdentifier><FreeText>${asciiXml(value)}</FreeText></Answer>`,
    )
    .join('');
  return `<?xml version="1.0" encoding="ASCII"?><QuestionFormAnswers xmlns="${QUESTION_FORM_ANSWERS_NAMESPACE}">${answers}</QuestionFormAnswers>`;
}

/** XML-escapes and writes non-ASCII characters as numeric references (the document says encoding="ASCII"). */
export function asciiXml(text: string): string {
  return escapeXml(text).replace(/[^\x20-\x7e\t\n\r]/gu, (ch) => `&#${ch.codePointAt(0)};`);
}

// ——— request checks ———

export function missing(field: string): ApiError {
  return requestError('AWS.MissingParameters', `Your request is missing a required parameter. (${field})`);
}

export function invalidState(allowed: string): ApiError {
  return requestError(
    'AWS.MechanicalTurk.InvalidAssignmentState',
    `This operation can be called with a status of: ${allowed}`,
  );
}

export function requiredString(body: Record<string, unknown>, field: string): string {
  const value = body[field];
  if (typeof value !== 'string' || value.trim() === '') throw missing(field);
  return value;
}

export function optionalString(body: Record<string, unknown>, field: string): string | undefined {
  const value = body[field];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') throw requestError('AWS.ParameterOutOfRange', `${field} must be a string.`);
  return value;
}

export function requiredInteger(body: Record<string, unknown>, field: string, min: number, max: number): number {
  const value = optionalInteger(body, field, min, max);
  if (value === undefined) throw missing(field);
  return value;
}

export function optionalInteger(
  body: Record<string, unknown>,
  field: string,
  min: number,
  max: number,
): number | undefined {
  const value = body[field];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    throw requestError(
      'AWS.ParameterOutOfRange',
      `The value ${String(value)} for ${field} is out of range ${min}-${max}.`,
    );
  }
  return value;
}

export function optionalFeedback(body: Record<string, unknown>): string | undefined {
  const feedback = optionalString(body, 'RequesterFeedback');
  if (feedback === undefined) return undefined;
  // biome-ignore lint/suspicious/noControlCharactersInRegex: the documented forbidden characters are control characters
  if (feedback.length > 1024 || /[\u0000-\u0008\u000b\u000c\u000e-\u001f]/.test(feedback)) {
    throw requestError('AWS.ParameterOutOfRange', 'The value of RequesterFeedback is invalid.');
  }
  return feedback;
}

export function assignmentStatuses(value: unknown): ContractAssignmentStatus[] {
  const all: ContractAssignmentStatus[] = ['Submitted', 'Approved', 'Rejected'];
  if (value === undefined || value === null) return all;
  if (!Array.isArray(value) || value.length === 0) {
    throw requestError('AWS.ParameterOutOfRange', 'AssignmentStatuses must be a non-empty list.');
  }
  const statuses = new Set<ContractAssignmentStatus>();
  for (const item of value) {
    if (!all.includes(item as ContractAssignmentStatus)) {
      throw requestError('AWS.ParameterOutOfRange', `The value ${String(item)} for AssignmentStatuses is invalid.`);
    }
    statuses.add(item as ContractAssignmentStatus);
  }
  return all.filter((s) => statuses.has(s));
}

/** A light schema check of the Question: the root's namespace, and for an ExternalQuestion its two elements. */
export function checkQuestion(question: string): void {
  const xml = question.replace(/^\s*<\?xml[^>]*\?>\s*/, '');
  const root = /^<([A-Za-z]+)\s+xmlns="([^"]+)"\s*>/.exec(xml);
  if (!root) throw xmlError('The Question root element must declare its schema namespace.');
  const [, name, namespace] = root;
  if (Buffer.byteLength(question, 'utf8') > 65_535) {
    throw requestError('AWS.ParameterOutOfRange', 'The Question is larger than 65535 bytes.');
  }
  if (name !== 'ExternalQuestion') {
    throw xmlError(`This contract server serves ExternalQuestion HITs only, not ${name}.`);
  }
  if (namespace !== EXTERNAL_QUESTION_NAMESPACE) {
    throw xmlError(`The namespace ${namespace} is not the ExternalQuestion schema's.`);
  }
  const url = /<ExternalURL>([^<]*)<\/ExternalURL>/.exec(xml)?.[1];
  const height = /<FrameHeight>([^<]*)<\/FrameHeight>/.exec(xml)?.[1];
  if (
    url === undefined ||
    height === undefined ||
    !/^\d+$/.test(height.trim()) ||
    !xml.endsWith('</ExternalQuestion>')
  ) {
    throw xmlError('An ExternalQuestion needs an ExternalURL and an integer FrameHeight.');
  }
  if (/&(?!(?:amp|lt|gt|quot|apos|#\d+|#x[0-9a-fA-F]+);)/.test(url)) {
    throw xmlError('The ExternalURL is not well-formed XML (an unescaped &).');
  }
  const decoded = url.replace(
    /&(amp|lt|gt|quot|apos);/g,
    (_, e: string) => ({ amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" })[e] ?? '',
  );
  if (!decoded.startsWith('https://')) throw xmlError('The ExternalURL must use HTTPS.');
}

export function xmlError(message: string): ApiError {
  return requestError('AWS.MechanicalTurk.XMLParseError', message);
}

export function parseBody(raw: Buffer): Record<string, unknown> | null {
  if (raw.length === 0) return {};
  try {
    const value: unknown = JSON.parse(raw.toString('utf8'));
    return value !== null && typeof value === 'object' && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : null;
  } catch {
    return null;
  }
}

export function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value.join(',') : value;
}

export function isOperation(name: string): name is ContractOperation {
  return (CONTRACT_OPERATIONS as readonly string[]).includes(name);
}

/** Epoch seconds, the JSON 1.1 protocol's timestamp format. */
export function seconds(ms: number): number {
  return Math.round(ms) / 1000;
}

export const ID_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';

/** An id shaped like MTurk's: upper-case letters and digits. */
export function newId(length: number): string {
  const bytes = randomBytes(length);
  let id = '';
  for (const byte of bytes) id += ID_ALPHABET[byte % ID_ALPHABET.length];
  return id;
}

export function hashId(text: string): string {
  const digest = createHash('sha256').update(text).digest();
  let id = '';
  for (const byte of digest.subarray(0, 30)) id += ID_ALPHABET[byte % ID_ALPHABET.length];
  return id;
}

export interface PageToken {
  hitId: string;
  filter: string;
  offset: number;
}

export function writeToken(token: PageToken): string {
  return Buffer.from(JSON.stringify(token), 'utf8').toString('base64url');
}

export function readToken(value: unknown): PageToken | null {
  if (typeof value !== 'string' || value.length === 0 || value.length > 255) return null;
  try {
    const token = JSON.parse(Buffer.from(value, 'base64url').toString('utf8')) as Partial<PageToken>;
    if (typeof token.hitId !== 'string' || typeof token.filter !== 'string') return null;
    if (typeof token.offset !== 'number' || !Number.isInteger(token.offset) || token.offset < 0) return null;
    return { hitId: token.hitId, filter: token.filter, offset: token.offset };
  } catch {
    return null;
  }
}
