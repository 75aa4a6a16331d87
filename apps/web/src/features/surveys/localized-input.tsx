import { LANGUAGES, type Language, type LocalizedText } from '@emolens/contracts';
import { NumberInput, type NumberInputProps, Textarea, TextInput, Tooltip } from '@mantine/core';
import { IconLanguage } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';

/**
 * One localized text in the editing language. When it is missing there while another language has it, the input
 * is marked and shows that text as its placeholder, so a translator sees what to translate.
 */
export function LocalizedInput({
  value,
  language,
  onChange,
  label,
  placeholder,
  error,
  maxLength,
  multiline = false,
  readOnly,
  testId,
  ariaLabel,
}: {
  value: LocalizedText | undefined;
  language: Language;
  onChange: (text: string) => void;
  label?: string;
  placeholder?: string;
  error?: string;
  maxLength: number;
  multiline?: boolean;
  readOnly: boolean;
  testId: string;
  ariaLabel?: string;
}) {
  const { t } = useTranslation('surveys');
  const current = value?.[language] ?? '';
  const source = LANGUAGES.find((l) => l !== language && value?.[l].trim());
  const missing = !current.trim() && source !== undefined;
  const hint = source ? `${source.toUpperCase()}: ${value?.[source] ?? ''}` : placeholder;
  const marker = missing ? (
    <Tooltip label={t('translations.missingHere', { language: t(`languages.${language}`) })} withArrow>
      <IconLanguage size={16} color="var(--mantine-color-orange-6)" aria-label={t('translations.missingShort')} />
    </Tooltip>
  ) : null;
  const common = {
    label,
    'aria-label': ariaLabel,
    value: current,
    placeholder: missing ? hint : placeholder,
    error,
    maxLength,
    readOnly,
    rightSection: marker,
    'data-missing': missing || undefined,
    'data-testid': testId,
    onChange: (event: { currentTarget: { value: string } }) => onChange(event.currentTarget.value),
    styles: missing ? { input: { borderColor: 'var(--mantine-color-orange-4)' } } : undefined,
  };
  return multiline ? <Textarea autosize minRows={1} maxRows={8} {...common} /> : <TextInput {...common} />;
}

/**
 * A number input of the draft: a whole number or nothing (null). What is typed on the way to a number ("-", "1.")
 * stays in the box without reaching the draft.
 */
export function DraftNumberInput({
  value,
  onChange,
  ...props
}: Omit<NumberInputProps, 'value' | 'onChange'> & { value: number | null; onChange: (value: number | null) => void }) {
  const [text, setText] = useState<number | string>(value ?? '');
  useEffect(() => {
    setText((shown) => (shown === value || (shown === '' && value === null) ? shown : (value ?? '')));
  }, [value]);
  return (
    <NumberInput
      {...props}
      value={text}
      onChange={(next) => {
        setText(next);
        if (typeof next === 'number') onChange(next);
        else if (next.trim() === '') onChange(null);
      }}
    />
  );
}
