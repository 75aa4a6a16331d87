import { VALIDATION_FAILURE_BEHAVIOURS, VALIDATION_THRESHOLD } from '@emolens/contracts';
import { Grid, NumberInput, Radio, Stack, Switch } from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import { useTranslation } from 'react-i18next';
import type { ResearchFormValues } from './research-form.ts';

/**
 * The calibration check before the content (issue 31, item 3; decision 050): the largest validation error, in % of
 * the screen diagonal, and what a second failure does (inside the settings' group of the same name).
 */
export function ValidationSettingsFields({
  form,
  readOnly,
}: {
  form: UseFormReturnType<ResearchFormValues>;
  readOnly: boolean;
}) {
  const { t } = useTranslation('researches');
  const on = form.values.settings.validationBeforeContent;
  return (
    <>
      <Switch
        label={t('settings.validation.enabled')}
        description={t('settings.validation.enabledHint')}
        disabled={readOnly}
        {...form.getInputProps('settings.validationBeforeContent', { type: 'checkbox' })}
        data-testid="setting-validationBeforeContent"
      />
      <Grid gap="md">
        <Grid.Col span={{ base: 12, sm: 6 }}>
          <NumberInput
            label={t('settings.validation.threshold')}
            description={t('settings.validation.thresholdHint')}
            suffix=" %"
            min={VALIDATION_THRESHOLD.min}
            max={VALIDATION_THRESHOLD.max}
            decimalScale={1}
            allowNegative={false}
            clampBehavior="none"
            readOnly={readOnly}
            disabled={!on}
            {...form.getInputProps('settings.validationThresholdPercent')}
            data-testid="setting-validationThresholdPercent"
          />
        </Grid.Col>
      </Grid>
      <Radio.Group
        label={t('settings.validation.failure')}
        {...form.getInputProps('settings.validationFailure')}
        data-testid="setting-validationFailure"
      >
        <Stack gap="sm" mt="xs">
          {VALIDATION_FAILURE_BEHAVIOURS.map((value) => (
            <Radio
              key={value}
              value={value}
              disabled={readOnly || !on}
              label={t(`settings.validation.${value}`)}
              description={t(`settings.validation.${value}Hint`)}
              data-testid={`setting-validationFailure-${value}`}
            />
          ))}
        </Stack>
      </Radio.Group>
    </>
  );
}
