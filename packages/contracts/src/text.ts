/**
 * Text the product can store and show. Every string the API takes is checked against the first
 * rule at the edge; names (of uploaded files, for example) against the second as well.
 */

/** UTF-16 surrogates without their pair: no UTF-8 form (jsonb refuses them, text stores U+FFFD). */
const LONE_SURROGATES = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
const NUL = String.fromCharCode(0);

/** No U+0000 (PostgreSQL text cannot hold it) and no lone surrogate. */
export function isStorableText(text: string): boolean {
  LONE_SURROGATES.lastIndex = 0;
  return !text.includes(NUL) && !LONE_SURROGATES.test(text);
}

/** The text with what `isStorableText` refuses replaced by U+FFFD, so an answer never echoes it. */
export function toStorableText(text: string): string {
  return text.replaceAll(NUL, '\uFFFD').replace(LONE_SURROGATES, '\uFFFD');
}

/** Text a name or an identifier may carry: storable, and no control character (C0 or DEL). */
export function isCleanText(text: string): boolean {
  if (!isStorableText(text)) return false;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit < 0x20 || unit === 0x7f) return false;
  }
  return true;
}
