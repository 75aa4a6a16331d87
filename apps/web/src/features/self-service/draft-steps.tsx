// The draft wizard's steps (draft-wizard.tsx): the video, the audience, the survey, the price, and the send button.
import { SELF_SERVICE_LIMITS, type SelfServiceTest } from '@emolens/contracts';
import {
  Alert,
  Button,
  Divider,
  Input,
  NumberInput,
  Paper,
  SegmentedControl,
  SimpleGrid,
  Stack,
  TagsInput,
  Text,
  TextInput,
  Tooltip,
} from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import { IconAlertTriangle, IconCircleCheck, IconSend } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { translateMessage } from '../../i18n/messages.ts';
import { ContentUploader } from '../media/content-uploader.tsx';
import type { DraftValues } from './draft-form.ts';
import { useSelfServiceFormat } from './self-service-ui.tsx';
import { ProblemList, SurveyLink, VideoFacts } from './test-parts.tsx';

export function SubmitButton(props: {
  canSubmit: boolean;
  dirty: boolean;
  busy: boolean;
  loading: boolean;
  onClick: () => void;
}) {
  const { t } = useTranslation('selfService');
  const button = (
    <Button
      size="md"
      leftSection={<IconSend size={18} />}
      disabled={!props.canSubmit || props.dirty || props.busy}
      loading={props.loading}
      onClick={props.onClick}
      data-testid="self-service-submit"
    >
      {t('submit.button')}
    </Button>
  );
  if (!props.dirty) return button;
  return (
    <Tooltip label={t('draft.saveFirst')} withArrow>
      <span style={{ display: 'inline-block' }}>{button}</span>
    </Tooltip>
  );
}

export function VideoStep({ test, form }: { test: SelfServiceTest; form: UseFormReturnType<DraftValues> }) {
  const { t } = useTranslation('selfService');
  return (
    <Stack gap="lg">
      <TextInput label={t('draft.name')} required data-testid="self-service-title" {...form.getInputProps('title')} />
      <Stack gap="sm">
        <Stack gap={2}>
          <Input.Label required>{t('video.label')}</Input.Label>
          <Input.Description>{t('video.hint')}</Input.Description>
        </Stack>
        {test.video && <VideoFacts test={test} />}
        <ContentUploader researchId={test.campaign_id} contentType="video" editable={test.can.edit} />
      </Stack>
    </Stack>
  );
}

export function AudienceStep({ form }: { form: UseFormReturnType<DraftValues> }) {
  const { t } = useTranslation('selfService');
  const limits = SELF_SERVICE_LIMITS;
  return (
    <Stack gap="lg">
      <NumberInput
        label={t('audience.respondents')}
        description={translateMessage({ key: 'selfservice.minRespondents' })}
        min={limits.respondents.min}
        max={limits.respondents.max}
        // A number under the minimum stays as typed and is refused with its message, never silently raised.
        clampBehavior="none"
        step={50}
        allowDecimal={false}
        allowNegative={false}
        thousandSeparator=" "
        required
        maw={280}
        data-testid="self-service-respondents"
        {...form.getInputProps('respondents')}
      />
      <Input.Wrapper label={t('audience.sex')} error={form.errors.sex}>
        <div>
          <SegmentedControl
            mt={4}
            data={(['off', 'man', 'woman'] as const).map((value) => ({ value, label: t(`audience.sexes.${value}`) }))}
            value={form.values.sex}
            onChange={(value) => form.setFieldValue('sex', value as DraftValues['sex'])}
            data-testid="self-service-sex"
          />
        </div>
      </Input.Wrapper>
      <SimpleGrid cols={{ base: 2, sm: 4 }} spacing="md">
        <NumberInput
          label={t('audience.ageFrom')}
          placeholder={t('audience.any')}
          min={limits.age.min}
          max={limits.age.max}
          allowDecimal={false}
          allowNegative={false}
          data-testid="self-service-age-min"
          {...form.getInputProps('age_min')}
        />
        <NumberInput
          label={t('audience.ageTo')}
          placeholder={t('audience.any')}
          min={limits.age.min}
          max={limits.age.max}
          allowDecimal={false}
          allowNegative={false}
          data-testid="self-service-age-max"
          {...form.getInputProps('age_max')}
        />
      </SimpleGrid>
      <TagsInput
        label={t('audience.regions')}
        description={t('audience.regionsHint')}
        placeholder={form.values.regions.length ? undefined : t('audience.regionsPlaceholder')}
        value={form.values.regions}
        onChange={(value) =>
          form.setFieldValue(
            'regions',
            // "ru, kz" typed and left (or pasted) at once is two codes.
            [...new Set(value.flatMap((v) => v.toUpperCase().split(/[\s,;]+/)).filter(Boolean))].slice(
              0,
              limits.regions,
            ),
          )
        }
        splitChars={[',', ' ', ';']}
        maxTags={limits.regions}
        clearable
        error={form.errors.regions}
        data-testid="self-service-regions"
      />
    </Stack>
  );
}

export function SurveyStep({ test }: { test: SelfServiceTest }) {
  const { t } = useTranslation('selfService');
  return (
    <Stack gap="md" align="flex-start">
      <Text size="sm">{t('survey.text')}</Text>
      <SurveyLink test={test} edit />
      {test.survey_problems.length > 0 ? (
        <Alert
          color="orange"
          variant="light"
          icon={<IconAlertTriangle size={18} />}
          title={t('survey.problemsTitle')}
          w="100%"
          data-testid="self-service-survey-problems"
        >
          <ProblemList problems={test.survey_problems} />
        </Alert>
      ) : (
        <Alert
          color="teal"
          variant="light"
          icon={<IconCircleCheck size={18} />}
          w="100%"
          data-testid="self-service-survey-ready"
        >
          {t('survey.ready')}
        </Alert>
      )}
    </Stack>
  );
}

function Tile({ label, value, testId }: { label: string; value: string; testId: string }) {
  return (
    <Paper withBorder radius="md" p="sm" data-testid={testId}>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text size="lg" fw={700}>
        {value}
      </Text>
    </Paper>
  );
}

export function PriceStep({
  test,
  values,
  dirty,
  submit,
}: {
  test: SelfServiceTest;
  values: DraftValues;
  dirty: boolean;
  submit: ReactNode;
}) {
  const { t } = useTranslation('selfService');
  const format = useSelfServiceFormat();
  const perInterview = test.sessions_per_interview;
  const respondents = values.respondents === '' ? null : Number(values.respondents);
  // The server's count of the saved version; the edited one's is shown before it is saved.
  const sessions = !dirty
    ? test.sessions
    : perInterview !== null && respondents !== null
      ? perInterview * respondents
      : null;
  const short = sessions !== null && test.balance !== null && sessions > test.balance;
  const dash = '—';
  return (
    <Stack gap="lg">
      <SimpleGrid cols={{ base: 2, sm: 3, lg: 5 }} spacing="sm">
        <Tile
          label={t('price.length')}
          value={test.video?.duration_seconds != null ? format.duration(test.video.duration_seconds) : dash}
          testId="price-length"
        />
        <Tile
          label={t('price.perInterview')}
          value={perInterview === null ? dash : format.number(perInterview)}
          testId="price-per-interview"
        />
        <Tile
          label={t('price.respondents')}
          value={respondents === null || Number.isNaN(respondents) ? dash : format.number(respondents)}
          testId="price-respondents"
        />
        <Tile
          label={t('price.sessions')}
          value={sessions === null ? dash : format.number(sessions)}
          testId="price-sessions"
        />
        <Tile
          label={t('price.balance')}
          value={test.balance === null ? t('price.unmetered') : format.number(test.balance)}
          testId="price-balance"
        />
      </SimpleGrid>
      <Text size="sm" data-testid="price-formula">
        {perInterview === null || respondents === null
          ? t('price.unknown')
          : t('price.formula', {
              perInterview: format.number(perInterview),
              respondents: format.number(respondents),
              sessions: sessions === null ? dash : format.number(sessions),
            })}
      </Text>
      <Text size="xs" c="dimmed">
        {t('price.hint')}
      </Text>
      {short && (
        <Alert color="orange" variant="light" icon={<IconAlertTriangle size={18} />} data-testid="price-short">
          {t('price.short', { balance: format.number(test.balance ?? 0), sessions: format.number(sessions ?? 0) })}
        </Alert>
      )}
      <Divider />
      {test.problems.length > 0 ? (
        <Alert
          color="orange"
          variant="light"
          icon={<IconAlertTriangle size={18} />}
          title={t('submit.problemsTitle')}
          data-testid="self-service-problems"
        >
          <ProblemList problems={test.problems} test={test} />
        </Alert>
      ) : (
        test.can.submit && (
          <Alert color="teal" variant="light" icon={<IconCircleCheck size={18} />} data-testid="self-service-ready">
            {t('submit.ready')}
          </Alert>
        )
      )}
      {/* Nothing missing and still not allowed: someone else's draft (only its owner sends it). */}
      {(test.can.submit || test.problems.length > 0) && (
        <Stack gap="xs" align="flex-start">
          {submit}
          <Text size="xs" c="dimmed">
            {t('submit.hint')}
          </Text>
        </Stack>
      )}
    </Stack>
  );
}
