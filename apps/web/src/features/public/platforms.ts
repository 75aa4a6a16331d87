/** Recruiting platforms of spec section 1, besides the own audience; names live in `platformNames.*`. */
export const PLATFORM_KEYS = [
  'toloka',
  'yandexTasks',
  'cint',
  'amazon',
  'millwardBrown',
  'armi',
  'tiburon',
  'omi',
  'onin',
  'anketolog',
] as const;
