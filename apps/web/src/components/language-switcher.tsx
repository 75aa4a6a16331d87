import { LANGUAGES, type Language } from '@emolens/contracts';
import { Select } from '@mantine/core';
import { IconLanguage } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { useSaveLanguage, useUser } from '../features/auth/api.ts';
import { currentLanguage, setLanguage } from '../i18n/index.ts';

export const LANGUAGE_NAMES: Record<Language, string> = {
  ru: 'Русский',
  en: 'English',
  id: 'Bahasa Indonesia',
  ko: '한국어',
};

/** Switches the interface language; a logged-in user's choice is also stored on the server. */
export function LanguageSwitcher() {
  const { t } = useTranslation();
  const user = useUser().data;
  const save = useSaveLanguage();
  const onChange = async (value: string | null) => {
    const language = LANGUAGES.find((l) => l === value);
    if (!language) return;
    await setLanguage(language);
    if (user) save.mutate(language);
  };
  return (
    <Select
      aria-label={t('language.label')}
      data-testid="language-switcher"
      size="xs"
      w={170}
      leftSection={<IconLanguage size={16} />}
      data={LANGUAGES.map((l) => ({ value: l, label: LANGUAGE_NAMES[l] }))}
      value={currentLanguage()}
      onChange={onChange}
      allowDeselect={false}
      comboboxProps={{ withinPortal: true }}
    />
  );
}
