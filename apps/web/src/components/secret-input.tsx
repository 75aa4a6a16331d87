import { PasswordInput, type PasswordInputProps } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/**
 * A password or secret field whose show/hide button is named in the interface language. Since Mantine 9 that
 * button has an accessible name of its own, in English ("Toggle password visibility"), unless it is given one.
 */
export function SecretInput({ visibilityToggleButtonProps, ...props }: PasswordInputProps) {
  const { t } = useTranslation();
  return (
    <PasswordInput
      {...props}
      visibilityToggleButtonProps={{ 'aria-label': t('actions.toggleVisibility'), ...visibilityToggleButtonProps }}
    />
  );
}
