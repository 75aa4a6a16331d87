import {
  DEFAULT_LANGUAGE,
  FALLBACK_LANGUAGE,
  isLanguage,
  LANGUAGE_QUERY_PARAM,
  LANGUAGES,
  type Language,
} from '@emolens/contracts';
import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import { resources } from './resources.ts';

const STORAGE_KEY = 'emolens.lang';

function storedLanguage(): Language | undefined {
  try {
    const value = localStorage.getItem(STORAGE_KEY);
    return isLanguage(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

/** The `curr_lang` query parameter of the current address, when it names a language. */
export function languageFromUrl(search: string = window.location.search): Language | undefined {
  const value = new URLSearchParams(search).get(LANGUAGE_QUERY_PARAM);
  return isLanguage(value) ? value : undefined;
}

/** Whether this browser holds a language choice (from the switcher or `curr_lang`). */
export function hasStoredLanguage(): boolean {
  return storedLanguage() !== undefined;
}

export function currentLanguage(): Language {
  return isLanguage(i18n.language) ? i18n.language : DEFAULT_LANGUAGE;
}

/** Switches the interface language and remembers the choice in this browser. */
export async function setLanguage(language: Language): Promise<void> {
  try {
    localStorage.setItem(STORAGE_KEY, language);
  } catch {
    // Private mode: the choice lasts for this page only.
  }
  document.documentElement.lang = language;
  await i18n.changeLanguage(language);
}

const initial = languageFromUrl() ?? storedLanguage() ?? DEFAULT_LANGUAGE;
if (languageFromUrl()) localStorage.setItem(STORAGE_KEY, initial);
document.documentElement.lang = initial;

void i18n.use(initReactI18next).init({
  resources,
  lng: initial,
  fallbackLng: FALLBACK_LANGUAGE,
  supportedLngs: [...LANGUAGES],
  ns: [
    'common',
    'public',
    'projects',
    'researches',
    'scenarios',
    'media',
    'content',
    'tasks',
    'respondent',
    'demo',
    'surveys',
    'reports',
    'reportView',
    'categories',
    'notifications',
    'licences',
    'selfService',
  ],
  defaultNS: 'common',
  interpolation: { escapeValue: false },
  returnNull: false,
});

export default i18n;
