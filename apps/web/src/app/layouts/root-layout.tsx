import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Outlet, ScrollRestoration, useLocation } from 'react-router';
import { languageFromUrl, setLanguage } from '../../i18n/index.ts';

/** Applies `curr_lang` from any address the app navigates to, and keeps the tab title in language. */
export function RootLayout() {
  const location = useLocation();
  const { i18n } = useTranslation();
  useEffect(() => {
    const language = languageFromUrl(location.search);
    if (language && language !== i18n.language) void setLanguage(language);
  }, [location.search, i18n.language]);
  return (
    <>
      <Outlet />
      <ScrollRestoration />
    </>
  );
}
