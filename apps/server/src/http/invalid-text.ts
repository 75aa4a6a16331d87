import { isStorableText, type MessageKey, toStorableText } from '@emolens/contracts';
import type { FastifyRequest } from 'fastify';
import { AppError } from './errors.ts';

/** At most this many fields are named in one answer. */
const MAX_FIELDS = 20;

/**
 * Dot-joined paths of the strings (values and keys) in `value` that hold invalid text. Walked with
 * an explicit queue, so a deeply nested body cannot overflow the stack.
 */
export function invalidTextPaths(value: unknown, limit = MAX_FIELDS): string[] {
  const found: string[] = [];
  const queue: [unknown, string][] = [[value, '']];
  for (let i = 0; i < queue.length && found.length < limit; i++) {
    const [current, path] = queue[i] as [unknown, string];
    if (typeof current === 'string') {
      if (!isStorableText(current)) found.push(path);
      continue;
    }
    // Binary bodies (recording chunks) hold bytes, not text: walking a buffer entry by entry would
    // cost a megabyte of work per megabyte of video.
    if (current === null || typeof current !== 'object' || ArrayBuffer.isView(current)) continue;
    const entries: [string, unknown][] = Array.isArray(current)
      ? current.map((item, index) => [String(index), item])
      : Object.entries(current);
    for (const [key, child] of entries) {
      const childPath = path ? `${path}.${key}` : key;
      // A bad key is named with its bad characters replaced: the answer must not echo them.
      if (!isStorableText(key)) found.push(toStorableText(childPath));
      else queue.push([child, childPath]);
    }
  }
  return found.slice(0, limit);
}

/** A path as it is named in an answer: a very deep one is cut, the answer stays small. */
const MAX_PATH = 200;
const shortened = (path: string) => (path.length > MAX_PATH ? `${path.slice(0, MAX_PATH)}…` : path);

/**
 * The one edge rule for text: a request whose path parameters, query or JSON body (any depth, keys
 * included) holds invalid text is refused before validation, so it never reaches zod or the database.
 */
export async function refuseInvalidText(request: FastifyRequest): Promise<void> {
  const paths = [
    ...invalidTextPaths(request.params),
    ...invalidTextPaths(request.query),
    ...invalidTextPaths(request.body),
  ];
  if (!paths.length) return;
  const fields: Record<string, MessageKey> = {};
  for (const path of paths.slice(0, MAX_FIELDS)) fields[shortened(path || '_')] = 'validation.invalidText';
  throw new AppError('invalid_text', { fields });
}
