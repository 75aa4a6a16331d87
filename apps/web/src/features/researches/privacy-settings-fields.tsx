import { SLOW_DEVICE_ACTIONS, type SlowDeviceAction } from '@emolens/contracts';
import { Input, SegmentedControl, Switch } from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import { useMediaQuery } from '@mantine/hooks';
import { useTranslation } from 'react-i18next';
import type { ResearchFormValues } from './research-form.ts';

/**
 * Privacy mode (issue 32; decision 064): the respondent's video stays on their device, which analyses it and uploads
 * only the face readings (off by default; single-face analysis only); and, with it, what a device too slow to keep up
 * is asked to do.
 */
export function PrivacySettingsFields({
  form,
  readOnly,
}: {
  form: UseFormReturnType<ResearchFormValues>;
  readOnly: boolean;
}) {
  const { t } = useTranslation('researches');
  const slow = form.getInputProps('settings.slowDeviceAction');
  // The two choices are long in some languages: one under the other on a phone.
  const narrow = useMediaQuery('(max-width: 36em)');
  return (
    <>
      <Switch
        label={t('settings.privacy.videoOnDevice')}
        description={t('settings.privacy.videoOnDeviceHint')}
        disabled={readOnly}
        {...form.getInputProps('settings.videoOnDevice', { type: 'checkbox' })}
        data-testid="setting-videoOnDevice"
      />
      {form.values.settings.videoOnDevice && (
        <Input.Wrapper
          label={t('settings.privacy.slowDeviceAction')}
          description={t('settings.privacy.slowDeviceActionHint')}
          error={slow.error}
        >
          <SegmentedControl
            mt={6}
            orientation={narrow ? 'vertical' : 'horizontal'}
            fullWidth={narrow}
            data={SLOW_DEVICE_ACTIONS.map((value) => ({ value, label: t(`settings.privacy.slow.${value}`) }))}
            value={String(slow.value)}
            onChange={(value) => slow.onChange(value as SlowDeviceAction)}
            readOnly={readOnly}
            data-testid="setting-slowDeviceAction"
          />
        </Input.Wrapper>
      )}
    </>
  );
}
