import type { ContentType } from '@emolens/contracts';
import { Switch } from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import { useTranslation } from 'react-i18next';
import type { ResearchFormValues } from './research-form.ts';

/**
 * The drift checkpoints during the content (issue 31, item 4; decision 055): a dot at the natural breaks (on by
 * default), and for a video research a 1 s dot over the playing video every 60 s (off by default).
 */
export function DriftSettingsFields({
  form,
  readOnly,
  contentType,
}: {
  form: UseFormReturnType<ResearchFormValues>;
  readOnly: boolean;
  contentType: ContentType | null;
}) {
  const { t } = useTranslation('researches');
  return (
    <>
      <Switch
        label={t('settings.drift.enabled')}
        description={t('settings.drift.enabledHint')}
        disabled={readOnly}
        {...form.getInputProps('settings.driftCheckpoints', { type: 'checkbox' })}
        data-testid="setting-driftCheckpoints"
      />
      {contentType === 'video' && (
        <Switch
          label={t('settings.drift.overlay')}
          description={t('settings.drift.overlayHint')}
          disabled={readOnly}
          {...form.getInputProps('settings.driftOverlay', { type: 'checkbox' })}
          data-testid="setting-driftOverlay"
        />
      )}
    </>
  );
}
