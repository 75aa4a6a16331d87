import { ANALYSIS_RATES, type ContentType, LANGUAGES, ORIENTATIONS } from '@emolens/contracts';
import {
  Grid,
  Input,
  NumberInput,
  Paper,
  SegmentedControl,
  Select,
  Stack,
  Switch,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import { type ReactNode, useId } from 'react';
import { useTranslation } from 'react-i18next';
import { DriftSettingsFields } from './drift-settings-fields.tsx';
import { PrivacySettingsFields } from './privacy-settings-fields.tsx';
import type { ResearchFormValues } from './research-form.ts';
import { ValidationSettingsFields } from './validation-settings-fields.tsx';

type Form = UseFormReturnType<ResearchFormValues>;
type BooleanSetting =
  | 'multiFacesMode'
  | 'gpuProcessing'
  | 'isRandomOrder'
  | 'autoShowTaskDescription'
  | 'showSurveyIdentifier'
  | 'isBannerAnalysis'
  | 'isFigma'
  | 'isFigmaHand'
  | 'isProtopie'
  | 'useTasksStatsInReport'
  | 'new_report_builder'
  | 'dataPause';

/**
 * The fieldwork settings of `researchSettingsSchema` (spec section 3), grouped by what they are
 * about. Prototype flags only concern site researches; banner analysis needs some content.
 */
export function ResearchSettingsFields({
  form,
  readOnly,
  contentType,
}: {
  form: Form;
  readOnly: boolean;
  contentType: ContentType | null;
}) {
  const { t } = useTranslation('researches');

  /** A task-group length in whole seconds, 5 s to an hour (the contract's bounds). */
  const taskSeconds = (key: 'taskTimeLimitSeconds' | 'contentVideoDuration') => (
    <NumberInput
      label={t(`settings.task.${key}`)}
      description={t(`settings.task.${key}Hint`)}
      suffix={` ${t('settings.secondsShort')}`}
      min={5}
      max={3600}
      allowDecimal={false}
      allowNegative={false}
      clampBehavior="none"
      readOnly={readOnly}
      {...form.getInputProps(`settings.${key}`)}
      data-testid={`setting-${key}`}
    />
  );

  const toggle = (key: BooleanSetting, label: string, description?: string) => (
    <Switch
      key={key}
      label={label}
      description={description}
      disabled={readOnly}
      {...form.getInputProps(`settings.${key}`, { type: 'checkbox' })}
      data-testid={`setting-${key}`}
    />
  );

  /** A setting chosen among a few values, as a segmented control; the form holds the option's own value. */
  const choice = <T extends string | number>(
    key: 'researchOrientation' | 'contentVideoFps',
    label: string,
    description: string,
    options: readonly { value: T; label: string }[],
  ) => {
    const input = form.getInputProps(`settings.${key}`);
    return (
      <Input.Wrapper label={label} description={description} error={input.error}>
        <SegmentedControl
          mt={6}
          data={options.map((o) => ({ value: String(o.value), label: o.label }))}
          value={String(input.value)}
          onChange={(value) => input.onChange(options.find((o) => String(o.value) === value)?.value)}
          readOnly={readOnly}
          data-testid={`setting-${key}`}
        />
      </Input.Wrapper>
    );
  };

  return (
    <Paper withBorder radius="lg" p={{ base: 'md', sm: 'xl' }} data-testid="campaign-settings">
      <Stack gap="xl">
        <Stack gap={2}>
          <Title order={3} size="h4">
            {t('settings.title')}
          </Title>
          <Text size="sm" c="dimmed">
            {t('settings.description')}
          </Text>
        </Stack>

        <SettingsGroup title={t('settings.quality.title')}>
          <Grid gap="md">
            <Grid.Col span={{ base: 12, sm: 6 }}>
              <NumberInput
                label={t('settings.quality.badFramesPercent')}
                description={t('settings.quality.badFramesPercentHint')}
                suffix=" %"
                min={0}
                max={100}
                decimalScale={2}
                allowNegative={false}
                clampBehavior="none"
                readOnly={readOnly}
                {...form.getInputProps('settings.badFramesPercent')}
                data-testid="setting-badFramesPercent"
              />
            </Grid.Col>
          </Grid>
          {choice(
            'contentVideoFps',
            t('settings.quality.contentVideoFps'),
            t('settings.quality.contentVideoFpsHint'),
            ANALYSIS_RATES.map((value) => ({
              value,
              label: t('settings.quality.contentVideoFpsRate', { rate: value }),
            })),
          )}
          {toggle('multiFacesMode', t('settings.quality.multiFacesMode'), t('settings.quality.multiFacesModeHint'))}
          {toggle('gpuProcessing', t('settings.quality.gpuProcessing'), t('settings.quality.gpuProcessingHint'))}
        </SettingsGroup>

        <SettingsGroup title={t('settings.privacy.title')} description={t('settings.privacy.description')}>
          <PrivacySettingsFields form={form} readOnly={readOnly} />
        </SettingsGroup>

        <SettingsGroup title={t('settings.validation.title')} description={t('settings.validation.description')}>
          <ValidationSettingsFields form={form} readOnly={readOnly} />
        </SettingsGroup>

        <SettingsGroup title={t('settings.drift.title')} description={t('settings.drift.description')}>
          <DriftSettingsFields form={form} readOnly={readOnly} contentType={contentType} />
        </SettingsGroup>

        <SettingsGroup title={t('settings.task.title')}>
          <Grid gap="md">
            <Grid.Col span={{ base: 12, sm: 6 }}>
              <Select
                label={t('settings.task.currentTaskLang')}
                description={t('settings.task.currentTaskLangHint')}
                data={LANGUAGES.map((value) => ({ value, label: t(`languages.${value}`) }))}
                allowDeselect={false}
                readOnly={readOnly}
                {...form.getInputProps('settings.currentTaskLang')}
                data-testid="setting-currentTaskLang"
              />
            </Grid.Col>
            <Grid.Col span={{ base: 12, sm: 6 }}>{taskSeconds('taskTimeLimitSeconds')}</Grid.Col>
            {contentType === 'contentless' && (
              <Grid.Col span={{ base: 12, sm: 6 }}>{taskSeconds('contentVideoDuration')}</Grid.Col>
            )}
          </Grid>
          {choice(
            'researchOrientation',
            t('settings.task.researchOrientation'),
            t('settings.task.researchOrientationHint'),
            ORIENTATIONS.map((value) => ({ value, label: t(`orientations.${value}`) })),
          )}
          {toggle('isRandomOrder', t('settings.task.isRandomOrder'), t('settings.task.isRandomOrderHint'))}
          {toggle(
            'autoShowTaskDescription',
            t('settings.task.autoShowTaskDescription'),
            t('settings.task.autoShowTaskDescriptionHint'),
          )}
          {toggle(
            'showSurveyIdentifier',
            t('settings.task.showSurveyIdentifier'),
            t('settings.task.showSurveyIdentifierHint'),
          )}
        </SettingsGroup>

        {contentType !== 'contentless' && (
          <SettingsGroup title={t('settings.banner.title')}>
            {toggle(
              'isBannerAnalysis',
              t('settings.banner.isBannerAnalysis'),
              t('settings.banner.isBannerAnalysisHint'),
            )}
            <Grid gap="md">
              <Grid.Col span={{ base: 12, sm: 6 }}>
                <NumberInput
                  label={t('settings.banner.bannerTime')}
                  description={t('settings.banner.bannerTimeHint')}
                  suffix={` ${t('settings.secondsShort')}`}
                  min={1}
                  max={600}
                  allowDecimal={false}
                  allowNegative={false}
                  clampBehavior="none"
                  readOnly={readOnly}
                  disabled={!form.values.settings.isBannerAnalysis}
                  {...form.getInputProps('settings.bannerTime')}
                  data-testid="setting-bannerTime"
                />
              </Grid.Col>
            </Grid>
          </SettingsGroup>
        )}

        {contentType === 'site' && (
          <SettingsGroup title={t('settings.prototype.title')} description={t('settings.prototype.description')}>
            {toggle('isFigma', t('settings.prototype.isFigma'))}
            {toggle('isFigmaHand', t('settings.prototype.isFigmaHand'))}
            {toggle('isProtopie', t('settings.prototype.isProtopie'))}
          </SettingsGroup>
        )}

        <SettingsGroup title={t('settings.cint.title')} description={t('settings.cint.description')}>
          <Grid gap="md">
            {(['complete', 'quota_full', 'screen_out'] as const).map((key) => (
              <Grid.Col key={key} span={12}>
                <TextInput
                  label={t(`settings.cint.${key}`)}
                  placeholder="https://"
                  readOnly={readOnly}
                  maxLength={2000}
                  {...form.getInputProps(`settings.cint_options.${key}`)}
                  data-testid={`setting-cint-${key}`}
                />
              </Grid.Col>
            ))}
          </Grid>
        </SettingsGroup>

        <SettingsGroup title={t('settings.reports.title')}>
          {toggle(
            'useTasksStatsInReport',
            t('settings.reports.useTasksStatsInReport'),
            t('settings.reports.useTasksStatsInReportHint'),
          )}
          {toggle(
            'new_report_builder',
            t('settings.reports.newReportBuilder'),
            t('settings.reports.newReportBuilderHint'),
          )}
          {toggle('dataPause', t('settings.reports.dataPause'))}
        </SettingsGroup>
      </Stack>
    </Paper>
  );
}

function SettingsGroup({ title, description, children }: { title: string; description?: string; children: ReactNode }) {
  const id = useId();
  return (
    <Stack gap="md" role="group" aria-labelledby={id}>
      <Stack gap={2}>
        <Text id={id} fw={700} size="sm" tt="uppercase" c="indigo.7" style={{ letterSpacing: '0.04em' }}>
          {title}
        </Text>
        {description && (
          <Text size="xs" c="dimmed">
            {description}
          </Text>
        )}
      </Stack>
      {children}
    </Stack>
  );
}
