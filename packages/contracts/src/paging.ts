import { z } from 'zod';
import { msg } from './messages.ts';

/**
 * Keyset paging, newest first: where the next page starts is the last row's moment (microseconds since 1970, exact)
 * and id, as `<micros>_<uuid>`.
 */
export const KEYSET_CURSOR = /^\d{1,17}_[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** A page's `cursor` query parameter: the `next_cursor` of the page before; none for the newest. */
export const keysetCursor = z.string(msg('validation.invalid')).regex(KEYSET_CURSOR, msg('validation.invalid'));
