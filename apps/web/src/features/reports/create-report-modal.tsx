import {
  type CreateReportInput,
  createReportInput,
  EMPTY_RESPONSE_FILTER,
  FIXATION_DEFAULTS,
  FIXATION_LIMITS,
  FIXATION_NOISE,
  type FixationNoise,
  type FixationSettings,
  HAPPY_FILTER_DEFAULT,
  REPORT_LIMITS,
  REPORT_NAME_MAX,
  REPORT_STEPS,
  type ReportFilters,
  type ReportSegment,
  type ReportType,
  textIn,
} from '@emolens/contracts';
import {
  Accordion,
  Button,
  Group,
  Modal,
  MultiSelect,
  Paper,
  SegmentedControl,
  Select,
  SimpleGrid,
  Stack,
  Switch,
  Text,
  Textarea,
  TextInput,
} from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiRequestError } from '../../api/client.ts';
import { currentLanguage } from '../../i18n/index.ts';
import { translateFields, translateMessage } from '../../i18n/messages.ts';
import { notifyError } from '../errors/notify.ts';
import { DraftNumberInput } from '../surveys/localized-input.tsx';
import { type FilterQuestionnaire, ResponseFilterEditor } from '../surveys/response-filter-editor.tsx';
import { useSurveyStatistics } from '../surveys/statistics-api.ts';
import { useCreateReport, usePoolableResearches } from './api.ts';
import { parseProcessIds } from './report-filters.ts';

const INITIAL_FILTERS: ReportFilters = {
  respondents: EMPTY_RESPONSE_FILTER,
  quality: 'usable',
  accuracy_max_px: null,
  date_from: null,
  date_to: null,
  process_ids: [],
  happy: null,
};

/** Messages of a failed parse or a refused request, per field path, translated. */
type FieldErrors = Record<string, string>;

/** The fixation filter's noise reductions, as the form names them. */
const NOISE_LABELS = {
  none: 'create.noiseNone',
  median: 'create.noiseMedian',
  average: 'create.noiseAverage',
} as const satisfies Record<FixationNoise, string>;

/**
 * The report builder (spec sections 2, 3, 8): name, type, step detail, who is counted (the questionnaires' response
 * filter plus quality, accuracy, dates, process ids and the happy filter), segments to compare, and the fixation
 * filter's thresholds. Checked with the contracts' schema before it is sent; the server's refusals (no responses,
 * no processed videos, a build already running) come back as a red notification.
 */
export function CreateReportModal({
  researchId,
  opened,
  onClose,
  onCreated,
}: {
  researchId: string;
  opened: boolean;
  onClose: () => void;
  onCreated: () => void;
}) {
  const { t } = useTranslation('reports');
  const language = currentLanguage();
  const phone = useMediaQuery('(max-width: 36em)') ?? false;
  const [name, setName] = useState('');
  const [type, setType] = useState<ReportType>('shift');
  const [step, setStep] = useState<number>(1);
  const [filters, setFilters] = useState<ReportFilters>(INITIAL_FILTERS);
  const [processText, setProcessText] = useState('');
  const [segment, setSegment] = useState<ReportSegment>({ by: 'none' });
  const [fixations, setFixations] = useState<FixationSettings>({ ...FIXATION_DEFAULTS });
  const [benchmark, setBenchmark] = useState(false);
  const [researches, setResearches] = useState<string[]>([]);
  const [errors, setErrors] = useState<FieldErrors>({});
  const create = useCreateReport(researchId);
  // Other researches of the project with this content type, which the report may pool (offered when there are any).
  const poolable = usePoolableResearches(researchId, opened).data ?? [];
  // The research's questionnaires: their answers filter respondents and make segments.
  const questionnaires = [useSurveyStatistics(researchId, 'survey', EMPTY_RESPONSE_FILTER).data]
    .flatMap((d) => [d?.survey, d?.other])
    .filter((s): s is FilterQuestionnaire => !!s);
  const singles = questionnaires.flatMap((s) =>
    s.questions
      .filter((q) => q.type === 'single')
      .map((q) => ({
        value: `${s.id}:${q.id}`,
        label: `${s.title} · ${q.id}. ${textIn(q.text, language)}`,
      })),
  );

  const set = (patch: Partial<ReportFilters>) => setFilters((f) => ({ ...f, ...patch }));
  const error = (path: string) => errors[path];

  const body = (): CreateReportInput => ({
    name,
    type,
    step: step as (typeof REPORT_STEPS)[number],
    filters: { ...filters, process_ids: parseProcessIds(processText) },
    segment,
    fixations,
    benchmark: benchmark && type === 'shift',
    researches,
  });

  const submit = () => {
    const parsed = createReportInput.safeParse(body());
    if (!parsed.success) {
      setErrors(
        Object.fromEntries(parsed.error.issues.map((issue) => [issue.path.join('.'), translateMessage(issue.message)])),
      );
      return;
    }
    setErrors({});
    create.mutate(body(), {
      onSuccess: () => {
        onCreated();
        setName('');
      },
      onError: (failure) => {
        const fields = failure instanceof ApiRequestError ? translateFields(failure) : {};
        setErrors(fields);
        notifyError(failure);
      },
    });
  };

  /** A numeric setting of the fixation filter: its bounds and step from the contracts. */
  const fixationInput = (key: Exclude<keyof FixationSettings, 'noise'>, label: string) => (
    <DraftNumberInput
      size="xs"
      label={label}
      value={fixations[key]}
      min={FIXATION_LIMITS[key].min}
      max={FIXATION_LIMITS[key].max}
      step={key === 'mergeAngle' ? 0.1 : key === 'noiseWindow' ? 2 : key === 'velocityThreshold' ? 1 : 5}
      decimalScale={key === 'mergeAngle' ? 2 : 1}
      onChange={(v) => setFixations((f) => ({ ...f, [key]: v ?? Number.NaN }))}
      error={error(`fixations.${key}`)}
      data-testid={`fixation-${key}`}
    />
  );

  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={t('create.title')}
      size="xl"
      fullScreen={phone}
      centered
      data-testid="create-report"
    >
      <Stack gap="md">
        <TextInput
          label={t('create.name')}
          description={t('create.nameHint', { max: REPORT_NAME_MAX })}
          value={name}
          onChange={(e) => setName(e.currentTarget.value)}
          error={error('name')}
          required
          data-autofocus
          data-testid="report-name"
        />
        {poolable.length > 0 && (
          <MultiSelect
            label={t('create.researches')}
            description={t('create.researchesHint')}
            value={researches}
            onChange={(ids) => {
              setResearches(ids);
              if (!ids.length && segment.by === 'research') setSegment({ by: 'none' });
            }}
            data={poolable.map((r) => ({
              value: r.id,
              label: t('create.researchOption', { title: r.title, count: r.processed }),
            }))}
            error={error('researches')}
            clearable
            data-testid="report-researches"
          />
        )}
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
          <Stack gap={4}>
            <Text size="sm" fw={500}>
              {t('create.type')}
            </Text>
            <SegmentedControl
              value={type}
              onChange={(v) => setType(v as ReportType)}
              data={[
                { value: 'shift', label: t('types.shift') },
                { value: 'calibration_subtraction', label: t('types.calibration_subtraction') },
              ]}
              orientation={phone ? 'vertical' : 'horizontal'}
              data-testid="report-type"
            />
            <Text size="xs" c="dimmed">
              {t(`typeHints.${type}`)}
            </Text>
          </Stack>
          <Select
            label={t('create.step')}
            value={String(step)}
            onChange={(v) => setStep(Number(v ?? 1))}
            data={REPORT_STEPS.map((s) => ({ value: String(s), label: t('create.stepSeconds', { count: s }) }))}
            allowDeselect={false}
            data-testid="report-step"
          />
        </SimpleGrid>
        <Switch
          label={t('create.benchmark')}
          description={type === 'shift' ? t('create.benchmarkHint') : t('create.benchmarkShiftOnly')}
          checked={benchmark && type === 'shift'}
          disabled={type !== 'shift'}
          onChange={(e) => setBenchmark(e.currentTarget.checked)}
          error={error('benchmark')}
          data-testid="report-benchmark"
        />

        <Paper radius="md" p="sm" bg="var(--mantine-color-default-hover)">
          <ResponseFilterEditor
            value={filters.respondents}
            onChange={(respondents) => set({ respondents })}
            questionnaires={questionnaires}
            language={language}
          />
        </Paper>

        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md" verticalSpacing="sm">
          <Stack gap={4}>
            <Text size="sm" fw={500}>
              {t('create.quality')}
            </Text>
            <SegmentedControl
              size="xs"
              value={filters.quality}
              onChange={(v) => set({ quality: v as ReportFilters['quality'] })}
              data={[
                { value: 'usable', label: t('create.qualityUsable') },
                { value: 'all', label: t('create.qualityAll') },
              ]}
              data-testid="report-quality"
            />
          </Stack>
          <DraftNumberInput
            size="xs"
            label={t('create.accuracy')}
            description={t('create.accuracyHint')}
            value={filters.accuracy_max_px}
            min={REPORT_LIMITS.accuracyPx.min}
            max={REPORT_LIMITS.accuracyPx.max}
            onChange={(accuracy_max_px) => set({ accuracy_max_px })}
            error={error('filters.accuracy_max_px')}
            data-testid="report-accuracy"
          />
          <TextInput
            size="xs"
            type="date"
            label={t('create.dateFrom')}
            value={filters.date_from ?? ''}
            onChange={(e) => set({ date_from: e.currentTarget.value || null })}
            error={error('filters.date_from')}
            data-testid="report-date-from"
          />
          <TextInput
            size="xs"
            type="date"
            label={t('create.dateTo')}
            value={filters.date_to ?? ''}
            onChange={(e) => set({ date_to: e.currentTarget.value || null })}
            error={error('filters.date_to')}
            data-testid="report-date-to"
          />
        </SimpleGrid>
        <Textarea
          size="xs"
          label={t('create.processes')}
          description={t('create.processesHint')}
          placeholder="3f2b6c1e-8a4d-4e7f-9b2a-1c5d6e7f8a9b, …"
          autosize
          minRows={1}
          maxRows={4}
          value={processText}
          onChange={(e) => setProcessText(e.currentTarget.value)}
          error={Object.entries(errors).find(([path]) => path.startsWith('filters.process_ids'))?.[1]}
          data-testid="report-processes"
        />
        <Stack gap={6}>
          <Switch
            label={t('create.happy')}
            description={t('create.happyHint')}
            checked={filters.happy !== null}
            onChange={(e) => set({ happy: e.currentTarget.checked ? { ...HAPPY_FILTER_DEFAULT } : null })}
            data-testid="report-happy"
          />
          {filters.happy && (
            <Group gap="xs" wrap="nowrap" pl={54}>
              {(['min', 'max'] as const).map((end) => (
                <Group key={end} gap="xs" wrap="nowrap">
                  {end === 'max' && <Text size="sm">–</Text>}
                  <DraftNumberInput
                    size="xs"
                    w={96}
                    aria-label={t(end === 'min' ? 'create.happyFrom' : 'create.happyTo')}
                    value={filters.happy?.[end] ?? null}
                    min={0}
                    max={1}
                    step={0.01}
                    decimalScale={3}
                    onChange={(v) => set({ happy: { min: 0, max: 0, ...filters.happy, [end]: v ?? Number.NaN } })}
                    error={error(`filters.happy.${end}`)}
                  />
                </Group>
              ))}
            </Group>
          )}
        </Stack>

        <Select
          label={t('create.segment')}
          description={t('create.segmentHint')}
          value={segment.by === 'answer' ? `${segment.survey_id}:${segment.question}` : segment.by}
          onChange={(v) => {
            if (!v || v === 'none' || v === 'sex' || v === 'research') {
              setSegment({ by: (v ?? 'none') as 'none' | 'sex' | 'research' });
            } else {
              const [survey_id = '', question = ''] = v.split(':');
              setSegment({ by: 'answer', survey_id, question });
            }
          }}
          data={[
            { value: 'none', label: t('create.segmentNone') },
            { value: 'sex', label: t('create.segmentSex') },
            ...(researches.length ? [{ value: 'research', label: t('create.segmentResearch') }] : []),
            ...singles,
          ]}
          error={error('segment.question') ?? error('segment')}
          allowDeselect={false}
          data-testid="report-segment"
        />

        <Accordion variant="contained" radius="md">
          <Accordion.Item value="gaze">
            <Accordion.Control>
              <Text size="sm">{t('create.gaze')}</Text>
            </Accordion.Control>
            <Accordion.Panel>
              <Stack gap="xs">
                <Text size="xs" c="dimmed">
                  {t('create.gazeHint')}
                </Text>
                <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
                  {fixationInput('gapFillMs', t('create.gapFill'))}
                  <Select
                    size="xs"
                    label={t('create.noise')}
                    value={fixations.noise}
                    onChange={(v) => v && setFixations((f) => ({ ...f, noise: v as FixationNoise }))}
                    data={FIXATION_NOISE.map((n) => ({ value: n, label: t(NOISE_LABELS[n]) }))}
                    allowDeselect={false}
                    error={error('fixations.noise')}
                    data-testid="fixation-noise"
                  />
                  {fixations.noise !== 'none' && fixationInput('noiseWindow', t('create.noiseWindow'))}
                  {fixationInput('velocityWindowMs', t('create.velocityWindow'))}
                  {fixationInput('velocityThreshold', t('create.velocity'))}
                  {fixationInput('mergeGapMs', t('create.mergeGap'))}
                  {fixationInput('mergeAngle', t('create.mergeAngle'))}
                  {fixationInput('minDurationMs', t('create.minDuration'))}
                </SimpleGrid>
              </Stack>
            </Accordion.Panel>
          </Accordion.Item>
        </Accordion>

        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onClose}>
            {t('create.cancel')}
          </Button>
          <Button onClick={submit} loading={create.isPending} data-testid="report-submit">
            {t('create.submit')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
