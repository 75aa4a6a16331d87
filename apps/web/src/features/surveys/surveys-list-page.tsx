import { SURVEY_TYPES, type SurveyType, type surveyListItem } from '@emolens/contracts';
import {
  ActionIcon,
  Anchor,
  Box,
  Button,
  Group,
  Paper,
  SegmentedControl,
  Stack,
  Table,
  Text,
  Title,
  Tooltip,
  VisuallyHidden,
} from '@mantine/core';
import { IconCheckupList, IconCopy, IconFilterOff, IconPlus, IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import type { z } from 'zod';
import { EmptyState } from '../../components/empty-state.tsx';
import { ListLoadError, ListLoading } from '../../components/list-states.tsx';
import { translateMessage } from '../../i18n/messages.ts';
import { useResearchFormat } from '../researches/research-ui.tsx';
import { useSurveyList } from './api.ts';
import { CreateSurveyDialog } from './create-survey-dialog.tsx';
import { surveyPath } from './paths.ts';
import { EnabledBadge, FrozenBadge, MissingTranslations, SurveyLinks, SurveyTypeBadge } from './survey-ui.tsx';
import { useSurveyActions } from './use-survey-actions.ts';

type SurveyListItem = z.infer<typeof surveyListItem>;

function isSurveyType(value: string | null): value is SurveyType {
  return value !== null && (SURVEY_TYPES as readonly string[]).includes(value);
}

/** Spec section 2, `surveys`: the questionnaires (screeners and surveys), filtered by type; create, copy, delete. */
export function SurveysListPage() {
  const { t } = useTranslation('surveys');
  const [params, setParams] = useSearchParams();
  const raw = params.get('type');
  const type = isSurveyType(raw) ? raw : null;
  const list = useSurveyList(type);
  const [creating, setCreating] = useState(false);
  const items = list.data;

  const setType = (value: string) =>
    setParams((previous) => {
      const next = new URLSearchParams(previous);
      if (isSurveyType(value)) next.set('type', value);
      else next.delete('type');
      return next;
    });

  const createButton = (testId?: string) => (
    <Button leftSection={<IconPlus size={18} />} onClick={() => setCreating(true)} data-testid={testId}>
      {t('list.create')}
    </Button>
  );

  return (
    <Stack gap="lg" data-testid="surveys-list">
      <Group justify="space-between" align="flex-end" gap="md">
        <Stack gap={4}>
          <Title order={2}>{t('list.title')}</Title>
          <Text c="dimmed">{t('list.subtitle')}</Text>
        </Stack>
        {createButton('survey-create')}
      </Group>

      <Paper withBorder radius="lg" style={{ overflow: 'hidden' }}>
        <Group p="md" gap="md">
          <SegmentedControl
            value={type ?? 'all'}
            onChange={setType}
            data={[
              { value: 'all', label: t('list.allTypes') },
              ...SURVEY_TYPES.map((value) => ({ value, label: t(`list.typeFilter.${value}`) })),
            ]}
            data-testid="surveys-type-filter"
          />
        </Group>

        {list.isPending ? (
          <ListLoading />
        ) : list.isError && !items ? (
          <ListLoadError
            testId="surveys-empty"
            title={t('list.loadErrorTitle')}
            text={t('list.loadErrorText')}
            retryLabel={t('actions.retry')}
            onRetry={() => void list.refetch()}
          />
        ) : items && items.length === 0 ? (
          type ? (
            <EmptyState
              testId="surveys-empty"
              icon={<IconFilterOff size={28} />}
              title={t('empty.filteredTitle')}
              text={t('empty.filteredText')}
              action={
                <Button variant="default" onClick={() => setType('all')}>
                  {t('list.allTypes')}
                </Button>
              }
            />
          ) : (
            <EmptyState
              testId="surveys-empty"
              icon={<IconCheckupList size={28} />}
              title={t('empty.title')}
              text={t('empty.text')}
              action={createButton()}
            />
          )
        ) : items ? (
          <SurveysTable items={items} />
        ) : null}
      </Paper>

      <CreateSurveyDialog opened={creating} onClose={() => setCreating(false)} initialType={type ?? 'screener'} />
    </Stack>
  );
}

function SurveysTable({ items }: { items: SurveyListItem[] }) {
  const { t } = useTranslation('surveys');
  const format = useResearchFormat();
  return (
    <>
      <Box visibleFrom="sm">
        <Table.ScrollContainer minWidth={1000}>
          <Table highlightOnHover verticalSpacing="sm" horizontalSpacing="sm" data-testid="surveys-table">
            <Table.Thead bg="gray.0">
              <Table.Tr>
                <Table.Th>{t('columns.title')}</Table.Th>
                <Table.Th>{t('columns.type')}</Table.Th>
                <Table.Th>{t('columns.state')}</Table.Th>
                <Table.Th ta="right">{t('columns.questions')}</Table.Th>
                <Table.Th>{t('columns.links')}</Table.Th>
                <Table.Th>{t('columns.translations')}</Table.Th>
                <Table.Th>{t('columns.updated')}</Table.Th>
                <Table.Th w={90}>
                  <VisuallyHidden>{t('columns.actions')}</VisuallyHidden>
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {items.map((survey) => (
                <Table.Tr key={survey.id} data-testid="survey-row">
                  <Table.Td miw={200} maw={320}>
                    <Anchor
                      component={Link}
                      to={surveyPath(survey.id)}
                      fw={600}
                      lineClamp={2}
                      data-testid="survey-open"
                    >
                      {survey.title}
                    </Anchor>
                  </Table.Td>
                  <Table.Td>
                    <SurveyTypeBadge type={survey.type} />
                  </Table.Td>
                  <Table.Td>
                    <Group gap={6} wrap="nowrap">
                      <EnabledBadge enabled={survey.enabled} />
                      {survey.frozen && <FrozenBadge />}
                    </Group>
                  </Table.Td>
                  <Table.Td ta="right" data-testid="survey-question-count">
                    {format.number(survey.question_count)}
                  </Table.Td>
                  <Table.Td maw={280}>
                    <SurveyLinks links={survey.links} />
                  </Table.Td>
                  <Table.Td>
                    <MissingTranslations languages={survey.missing_translations} linked={survey.links.length > 0} />
                  </Table.Td>
                  <Table.Td>
                    <Text size="sm" style={{ whiteSpace: 'nowrap' }}>
                      {format.date(survey.updated_at)}
                    </Text>
                  </Table.Td>
                  <Table.Td>
                    <SurveyActions survey={survey} />
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      </Box>
      {/* A phone gets a card per questionnaire instead of a wide table. */}
      <Stack hiddenFrom="sm" gap={0} data-testid="surveys-cards">
        {items.map((survey) => (
          <Stack
            key={survey.id}
            gap={6}
            p="md"
            style={{ borderTop: '1px solid var(--mantine-color-gray-2)' }}
            data-testid="survey-card"
          >
            <Group justify="space-between" wrap="nowrap" align="flex-start" gap="xs">
              <Anchor component={Link} to={surveyPath(survey.id)} fw={600} style={{ overflowWrap: 'anywhere' }}>
                {survey.title}
              </Anchor>
              <SurveyActions survey={survey} />
            </Group>
            <Group gap={6}>
              <SurveyTypeBadge type={survey.type} />
              <EnabledBadge enabled={survey.enabled} />
              {survey.frozen && <FrozenBadge />}
            </Group>
            <Text size="sm" c="dimmed">
              {t('list.cardFacts', {
                count: format.number(survey.question_count),
                date: format.date(survey.updated_at),
              })}
            </Text>
            <SurveyLinks links={survey.links} />
            {survey.missing_translations.length > 0 && (
              <MissingTranslations languages={survey.missing_translations} linked />
            )}
          </Stack>
        ))}
      </Stack>
    </>
  );
}

/** Copy, and delete (disabled with the server's reason while a scenario uses the questionnaire). */
function SurveyActions({ survey }: { survey: SurveyListItem }) {
  const { t } = useTranslation('surveys');
  const { makeCopy, confirmDelete, copying, removing } = useSurveyActions(survey);
  const inUse = translateMessage({ key: 'survey.inUse' });

  return (
    <Group gap={4} wrap="nowrap" justify="flex-end">
      {survey.can.copy && (
        <Tooltip label={t('actions.copy')} withArrow>
          <ActionIcon
            variant="subtle"
            aria-label={t('actions.copy')}
            loading={copying}
            onClick={makeCopy}
            data-testid="survey-copy"
          >
            <IconCopy size={16} />
          </ActionIcon>
        </Tooltip>
      )}
      <Tooltip label={survey.can.delete ? t('actions.delete') : inUse} withArrow multiline maw={260}>
        {/* A disabled button takes no pointer: the wrapper keeps the reason's tooltip. */}
        <span>
          <ActionIcon
            variant="subtle"
            color="red"
            aria-label={survey.can.delete ? t('actions.delete') : inUse}
            disabled={!survey.can.delete}
            loading={removing}
            onClick={confirmDelete}
            data-testid="survey-delete"
          >
            <IconTrash size={16} />
          </ActionIcon>
        </span>
      </Tooltip>
    </Group>
  );
}
