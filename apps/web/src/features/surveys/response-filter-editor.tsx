import {
  type AnswerFilter,
  activeFilterCount,
  conditionFits,
  EMPTY_RESPONSE_FILTER,
  type Language,
  type Question,
  RESPONDENT_SESSION_STATUSES,
  RESPONSE_FILTER_LIMITS,
  type RespondentSessionStatus,
  type ResponseFilter,
  responseFilterSchema,
  type SexFilter,
  type SurveyType,
} from '@emolens/contracts';
import { Badge, Button, Group, MultiSelect, SegmentedControl, Select, Stack, Text } from '@mantine/core';
import { IconFilter, IconPlus } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { ConditionRow } from './display-logic.tsx';
import { DraftNumberInput } from './localized-input.tsx';
import { conditionOn } from './survey-draft.ts';

/** A questionnaire whose answers a filter can name. */
export interface FilterQuestionnaire {
  id: string;
  type: SurveyType;
  title: string;
  questions: Question[];
}

/**
 * The part of a filter that can be asked for while it is being edited: answer conditions whose value is not
 * chosen yet are left out, and an age range that runs backwards is not applied (the editor says why).
 */
export function applicableFilter(
  filter: ResponseFilter,
  questionnaires: readonly FilterQuestionnaire[],
): ResponseFilter {
  const answers = filter.answers.filter((c) => {
    const q = questionnaires.find((s) => s.id === c.survey_id)?.questions.find((x) => x.id === c.question);
    return q !== undefined && conditionFits(c, q);
  });
  const reversed = filter.age_min !== null && filter.age_max !== null && filter.age_min > filter.age_max;
  const next = { ...filter, answers, ...(reversed ? { age_min: null, age_max: null } : {}) };
  return responseFilterSchema.safeParse(next).success ? next : EMPTY_RESPONSE_FILTER;
}

/**
 * Which respondents to count (the contracts' `responseFilterSchema`): sex, age, session status and answers to
 * the research's questionnaires, all of which must hold. Statistics use it; reports will.
 */
export function ResponseFilterEditor({
  value,
  onChange,
  questionnaires,
  language,
}: {
  value: ResponseFilter;
  onChange: (filter: ResponseFilter) => void;
  questionnaires: readonly FilterQuestionnaire[];
  language: Language;
}) {
  const { t } = useTranslation('surveys');
  const { t: tf } = useTranslation('fieldwork');
  const set = (patch: Partial<ResponseFilter>) => onChange({ ...value, ...patch });
  const reversed = value.age_min !== null && value.age_max !== null && value.age_min > value.age_max;
  const active = activeFilterCount(value);
  const askable = questionnaires.filter((s) => s.questions.some((q) => q.type !== 'info'));
  const setAnswer = (index: number, next: AnswerFilter) =>
    set({ answers: value.answers.map((c, i) => (i === index ? next : c)) });

  const addCondition = () => {
    const first = askable[0];
    const target = first?.questions.find((q) => q.type !== 'info');
    if (!first || !target) return;
    set({ answers: [...value.answers, { survey_id: first.id, ...conditionOn(target) }] });
  };

  return (
    <Stack gap="sm" data-testid="response-filter">
      <Group gap="xs" justify="space-between">
        <Group gap={6}>
          <IconFilter size={16} aria-hidden />
          <Text size="sm" fw={600}>
            {t('filter.title')}
          </Text>
          {active > 0 && (
            <Badge size="sm" variant="light" data-testid="filter-count">
              {active}
            </Badge>
          )}
        </Group>
        {active > 0 && (
          <Button
            size="compact-xs"
            variant="subtle"
            onClick={() => onChange(EMPTY_RESPONSE_FILTER)}
            data-testid="filter-clear"
          >
            {t('filter.clear')}
          </Button>
        )}
      </Group>
      <Group gap="md" align="flex-end" wrap="wrap">
        <Stack gap={4}>
          <Text size="xs" fw={500}>
            {t('filter.sex')}
          </Text>
          <SegmentedControl
            size="xs"
            value={value.sex}
            onChange={(sex) => set({ sex: sex as SexFilter })}
            data={[
              { value: 'off', label: t('filter.sexOff') },
              { value: 'man', label: t('filter.men') },
              { value: 'woman', label: t('filter.women') },
            ]}
            aria-label={t('filter.sex')}
            data-testid="filter-sex"
          />
        </Stack>
        <Group gap={6} align="flex-end" wrap="nowrap">
          <DraftNumberInput
            size="xs"
            w={84}
            label={t('filter.ageFrom')}
            value={value.age_min}
            min={RESPONSE_FILTER_LIMITS.minAge}
            max={RESPONSE_FILTER_LIMITS.maxAge}
            allowDecimal={false}
            onChange={(age_min) => set({ age_min })}
            data-testid="filter-age-min"
          />
          <Text size="sm" pb={4}>
            –
          </Text>
          <DraftNumberInput
            size="xs"
            w={84}
            label={t('filter.ageTo')}
            value={value.age_max}
            min={RESPONSE_FILTER_LIMITS.minAge}
            max={RESPONSE_FILTER_LIMITS.maxAge}
            allowDecimal={false}
            error={reversed ? t('filter.ageReversed') : undefined}
            onChange={(age_max) => set({ age_max })}
            data-testid="filter-age-max"
          />
        </Group>
        <MultiSelect
          size="xs"
          label={t('filter.statuses')}
          placeholder={value.statuses.length ? undefined : t('filter.allStatuses')}
          data={RESPONDENT_SESSION_STATUSES.map((s) => ({ value: s, label: tf(`status.${s}`) }))}
          value={value.statuses}
          onChange={(statuses) => set({ statuses: statuses as RespondentSessionStatus[] })}
          clearable
          style={{ flex: '1 1 220px', maxWidth: 420 }}
          comboboxProps={{ withinPortal: true }}
          data-testid="filter-statuses"
        />
      </Group>
      {value.answers.map((condition, index) => {
        const survey = askable.find((s) => s.id === condition.survey_id) ?? askable[0];
        if (!survey) return null;
        const targets = survey.questions.filter((q) => q.type !== 'info');
        return (
          // Conditions have no ids; their place is who they are.
          // biome-ignore lint/suspicious/noArrayIndexKey: see above
          <Stack key={index} gap={4} data-testid="filter-answer">
            {askable.length > 1 && (
              <Select
                size="xs"
                aria-label={t('filter.questionnaire')}
                data={askable.map((s) => ({ value: s.id, label: `${t(`types.${s.type}`)}: ${s.title}` }))}
                value={survey.id}
                allowDeselect={false}
                onChange={(id) => {
                  const next = askable.find((s) => s.id === id);
                  const q = next?.questions.find((x) => x.type !== 'info');
                  if (next && q) setAnswer(index, { survey_id: next.id, ...conditionOn(q) });
                }}
                maw={360}
                comboboxProps={{ withinPortal: true }}
                data-testid="filter-answer-survey"
              />
            )}
            <ConditionRow
              condition={condition}
              joiner={index === 0 ? null : 'and'}
              targets={targets}
              questions={survey.questions}
              language={language}
              readOnly={false}
              onChange={(next) => setAnswer(index, { ...next, survey_id: survey.id })}
              onRemove={() => set({ answers: value.answers.filter((_, i) => i !== index) })}
              errors={{}}
            />
          </Stack>
        );
      })}
      {askable.length > 0 && (
        <Group>
          <Button
            size="xs"
            variant="subtle"
            leftSection={<IconPlus size={14} />}
            disabled={value.answers.length >= RESPONSE_FILTER_LIMITS.answers}
            onClick={addCondition}
            data-testid="filter-answer-add"
          >
            {t('filter.addAnswer')}
          </Button>
        </Group>
      )}
    </Stack>
  );
}
