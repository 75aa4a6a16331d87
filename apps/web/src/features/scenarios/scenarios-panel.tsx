import { arrayMove } from '@dnd-kit/sortable';
import type { Project, Scenario } from '@emolens/contracts';
import { ActionIcon, Alert, Badge, Button, Group, Paper, Stack, Text, Tooltip } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconChartBar, IconCopy, IconDownload, IconLock, IconPencil, IconPlus, IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { openConfirm } from '../../components/confirm.ts';
import { InlineLoadState } from '../../components/load-states.tsx';
import { OrderMenu, SortableList } from '../../components/sortable-list.tsx';
import { TipIconButton } from '../../components/tip-icon-button.tsx';
import { notifyError } from '../errors/notify.ts';
import {
  downloadDisplayOrder,
  useDeleteScenario,
  useDuplicateScenario,
  useReorderScenarios,
  useScenarioList,
} from './api.ts';
import { PanelHeader } from './panel-header.tsx';
import { QuotaLinksPanel } from './quota-links-panel.tsx';
import { ScenarioModal } from './scenario-modal.tsx';

/** The project's scenarios and, below them, its quota links. */
export function ScenariosPanel({ project }: { project: Project }) {
  return (
    <Stack gap="lg">
      <ScenarioList project={project} />
      <QuotaLinksPanel project={project} />
    </Stack>
  );
}

function ScenarioList({ project }: { project: Project }) {
  const { t } = useTranslation('scenarios');
  const query = useScenarioList(project.id);
  const reorder = useReorderScenarios(project.id);
  const duplicate = useDuplicateScenario(project.id);
  const remove = useDeleteScenario(project.id);
  /** undefined: closed; null: a new scenario. */
  const [editing, setEditing] = useState<Scenario | null | undefined>(undefined);
  const [downloading, setDownloading] = useState<string | null>(null);
  // The server says what may be done: add and reorder (the project), edit a scenario (each one).
  const manage = project.can.manage_scenarios;
  const scenarios = query.data ?? [];
  const busy = reorder.isPending || duplicate.isPending || remove.isPending;

  const moveTo = (from: number, to: number) => {
    if (from === to || from < 0 || to < 0 || to >= scenarios.length) return;
    reorder.reorder(arrayMove(scenarios, from, to));
  };

  const confirmDelete = (scenario: Scenario) =>
    openConfirm({
      title: t('delete.title', { number: scenario.order_number }),
      children: <Text size="sm">{t('delete.text')}</Text>,
      labels: { confirm: t('delete.confirm'), cancel: t('actions.cancel') },
      confirmProps: { color: 'red', 'data-testid': 'confirm-action' },
      centered: true,
      onConfirm: () =>
        remove.mutateAsync(scenario.id, {
          onSuccess: () => notifications.show({ color: 'green', message: t('delete.done'), autoClose: 4000 }),
        }),
    });

  const download = async (scenario: Scenario) => {
    setDownloading(scenario.id);
    try {
      await downloadDisplayOrder(scenario.id);
    } catch (error) {
      notifyError(error);
    } finally {
      setDownloading(null);
    }
  };

  return (
    <Paper withBorder radius="lg" p="xl" data-testid="scenarios-panel">
      <Stack gap="md">
        <PanelHeader
          title={t('scenarios.title')}
          subtitle={t('scenarios.subtitle')}
          manage={manage}
          action={
            <Button leftSection={<IconPlus size={16} />} onClick={() => setEditing(null)} data-testid="scenario-add">
              {t('scenarios.add')}
            </Button>
          }
        />

        {!manage && (
          <Alert color="gray" variant="light" icon={<IconLock size={18} />} data-testid="scenarios-read-only">
            {t('scenarios.frozen')}
          </Alert>
        )}

        <InlineLoadState query={query} text={t('scenarios.loadError')} retryLabel={t('actions.retry')} />
        {query.isSuccess && scenarios.length === 0 && (
          <Text size="sm" c="dimmed" data-testid="scenarios-empty">
            {manage ? t('scenarios.empty') : t('scenarios.emptyFrozen')}
          </Text>
        )}

        {scenarios.length > 0 && (
          <SortableList
            items={scenarios}
            getId={(scenario) => scenario.id}
            texts="scenario"
            valuesOf={(scenario) => ({ number: scenario.order_number })}
            editable={manage}
            disabled={busy}
            gap="md"
            testId="scenario"
            onMove={moveTo}
          >
            {(scenario, index, row) => (
              <Paper {...row.props} withBorder radius="md" p="md" data-testid="scenario-row">
                <Group justify="space-between" align="flex-start" wrap="nowrap" gap="md">
                  <Group align="flex-start" wrap="nowrap" gap="md" style={{ minWidth: 0 }}>
                    <Group gap={6} wrap="nowrap">
                      {row.handle}
                      <Badge size="lg" variant="light" radius="sm" data-testid="scenario-number">
                        {scenario.order_number}
                      </Badge>
                    </Group>
                    <Stack gap={6} style={{ minWidth: 0 }}>
                      <Text fw={500} style={{ overflowWrap: 'anywhere' }} data-testid="scenario-description">
                        {scenario.description || t('scenarios.noDescription')}
                      </Text>
                      <Text size="sm" c="dimmed" data-testid="scenario-researches">
                        {scenario.campaigns.length
                          ? scenario.campaigns.map((c, i) => `${i + 1}. ${c.title}`).join('  ·  ')
                          : t('scenarios.noResearches')}
                      </Text>
                      <Group gap={6}>
                        {scenario.is_random_order && (
                          <Badge variant="outline" color="grape" size="sm">
                            {t('badges.randomOrder')}
                          </Badge>
                        )}
                        {scenario.is_use_face_checker && (
                          <Badge variant="outline" color="teal" size="sm">
                            {t('badges.faceChecker')}
                          </Badge>
                        )}
                        {scenario.is_paid && (
                          <Badge variant="outline" color="yellow" size="sm">
                            {t('badges.paid')}
                          </Badge>
                        )}
                        {scenario.quota !== null && (
                          <Badge variant="outline" color="gray" size="sm">
                            {t('badges.quota', { quota: scenario.quota })}
                          </Badge>
                        )}
                        {scenario.screener_survey_id && (
                          <Badge variant="outline" color="indigo" size="sm" data-testid="scenario-screener-badge">
                            {t('badges.screener')}
                          </Badge>
                        )}
                        {scenario.embedded_survey_id && (
                          <Badge variant="outline" color="indigo" size="sm" data-testid="scenario-survey-badge">
                            {t('badges.survey')}
                          </Badge>
                        )}
                      </Group>
                    </Stack>
                  </Group>
                  <Group gap={4} wrap="nowrap">
                    {manage && (
                      <OrderMenu
                        index={index}
                        count={scenarios.length}
                        onMove={moveTo}
                        disabled={busy}
                        testId="scenario"
                        labels={{ order: t('actions.order'), up: t('actions.moveUp'), down: t('actions.moveDown') }}
                      />
                    )}
                    {scenario.can.edit && (
                      <>
                        <TipIconButton
                          label={t('actions.edit')}
                          disabled={busy}
                          onClick={() => setEditing(scenario)}
                          testId="scenario-edit"
                        >
                          <IconPencil size={16} />
                        </TipIconButton>
                        <TipIconButton
                          label={t('actions.duplicate')}
                          disabled={busy}
                          onClick={() =>
                            duplicate.mutate(scenario.id, {
                              onSuccess: () =>
                                notifications.show({
                                  color: 'green',
                                  message: t('scenarios.duplicated'),
                                  autoClose: 4000,
                                }),
                            })
                          }
                          testId="scenario-duplicate"
                        >
                          <IconCopy size={16} />
                        </TipIconButton>
                      </>
                    )}
                    {(scenario.screener_survey_id || scenario.embedded_survey_id) && scenario.campaigns[0] && (
                      <Tooltip label={t('actions.surveyStatistics')} withArrow>
                        <ActionIcon
                          component={Link}
                          to={`/cabinet/campaign/${scenario.campaigns[0].id}/statistic`}
                          variant="subtle"
                          aria-label={t('actions.surveyStatistics')}
                          data-testid="scenario-survey-statistics"
                        >
                          <IconChartBar size={16} />
                        </ActionIcon>
                      </Tooltip>
                    )}
                    <TipIconButton
                      label={t('actions.downloadOrder')}
                      loading={downloading === scenario.id}
                      onClick={() => void download(scenario)}
                      testId="scenario-download"
                    >
                      <IconDownload size={16} />
                    </TipIconButton>
                    {scenario.can.edit && (
                      <TipIconButton
                        label={t('actions.delete')}
                        color="red"
                        disabled={busy}
                        onClick={() => confirmDelete(scenario)}
                        testId="scenario-delete"
                      >
                        <IconTrash size={16} />
                      </TipIconButton>
                    )}
                  </Group>
                </Group>
              </Paper>
            )}
          </SortableList>
        )}
      </Stack>
      {editing !== undefined && (
        <ScenarioModal projectId={project.id} scenario={editing} onClose={() => setEditing(undefined)} />
      )}
    </Paper>
  );
}
