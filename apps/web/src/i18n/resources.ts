import enCommon from './locales/en/common.json';
import enPublic from './locales/en/public.json';
import idCommon from './locales/id/common.json';
import idPublic from './locales/id/public.json';
import koCommon from './locales/ko/common.json';
import koPublic from './locales/ko/public.json';
import ruCommon from './locales/ru/common.json';
import ruPublic from './locales/ru/public.json';

/** Every locale is bundled: switching language never waits for the network. */
export const resources = {
  ru: { common: ruCommon, public: ruPublic },
  en: { common: enCommon, public: enPublic },
  id: { common: idCommon, public: idPublic },
  ko: { common: koCommon, public: koPublic },
} as const;
