/** Interface languages. ru is the default, en the fallback (spec section 1). */
export const LANGUAGES = ['ru', 'en', 'id', 'ko'] as const;
export type Language = (typeof LANGUAGES)[number];
export const DEFAULT_LANGUAGE: Language = 'ru';
export const FALLBACK_LANGUAGE: Language = 'en';
/** Query parameter that switches the interface language. */
export const LANGUAGE_QUERY_PARAM = 'curr_lang';

export function isLanguage(value: unknown): value is Language {
  return typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value);
}
