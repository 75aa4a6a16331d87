import { PROJECT_TABS, type Project, type ProjectTab } from '@emolens/contracts';
import {
  Anchor,
  Badge,
  Button,
  Group,
  Paper,
  Stack,
  Switch,
  Table,
  Tabs,
  Text,
  Title,
  Tooltip,
  VisuallyHidden,
} from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import {
  IconChartDots3,
  IconFolderOpen,
  IconLink,
  IconListDetails,
  IconPlus,
  IconUsers,
  IconWand,
} from '@tabler/icons-react';
import { type ReactNode, useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ListBody, ListSearch, listTexts } from '../../components/list-states.tsx';
import { useListAddress } from '../../components/use-list-address.ts';
import { useProjectList } from './api.ts';
import { CreateProjectDialog } from './create-project-dialog.tsx';
import { PreparationBadge } from './demo-preparation.tsx';
import { DemoBadge, FlowTypeBadge, StatusBadge, useProjectFormat } from './project-ui.tsx';

const TABS = Object.keys(PROJECT_TABS) as ProjectTab[];
const PAGE_SIZE = 20;
/** Where an address without a tab goes when no project is active. */
const FALLBACK_TABS: ProjectTab[] = ['drafts', 'completed'];

function isTab(value: string | null): value is ProjectTab {
  return value !== null && (TABS as string[]).includes(value);
}

/** Spec section 2: the projects list with search, status tabs, 'created by me', and creation. */
export function ProjectsListPage() {
  const { t } = useTranslation('projects');
  const { params, search, page, update, searchInput, setSearchInput } = useListAddress();
  const [createOpened, createDialog] = useDisclosure(false);

  const tab: ProjectTab = isTab(params.get('tab')) ? (params.get('tab') as ProjectTab) : 'active';
  const mine = params.get('mine') === '1';

  const list = useProjectList({
    search: search || undefined,
    tab,
    created_by_me: mine ? 'true' : undefined,
    page,
    page_size: PAGE_SIZE,
  });
  const data = list.data;
  const filtered = search !== '' || mine;
  // Opened without a tab and nothing is active: the drafts or completed projects there are, not an empty tab (a
  // newcomer's only project is the completed demo).
  const fallback =
    !params.has('tab') && !filtered && data?.tabs.active === 0
      ? FALLBACK_TABS.find((k) => data.tabs[k] > 0)
      : undefined;
  // biome-ignore lint/correctness/useExhaustiveDependencies: only a new fallback moves the address
  useEffect(() => {
    if (fallback) update({ tab: fallback }, { replace: true });
  }, [fallback]);

  return (
    <Stack gap="lg" data-testid="projects-list">
      <Group justify="space-between" align="flex-end" gap="md">
        <Stack gap={4}>
          <Title order={2}>{t('list.title')}</Title>
          <Text c="dimmed">{t('list.subtitle')}</Text>
        </Stack>
        <Group gap="sm">
          <Button variant="default" component={Link} to="/cabinet/projects/add" leftSection={<IconWand size={18} />}>
            {t('list.createWizard')}
          </Button>
          <Button leftSection={<IconPlus size={18} />} onClick={createDialog.open}>
            {t('list.create')}
          </Button>
        </Group>
      </Group>

      <Paper withBorder radius="lg" style={{ overflow: 'hidden' }}>
        <Group justify="space-between" p="md" gap="md">
          <ListSearch
            label={t('list.search')}
            hiddenLabel
            placeholder={t('list.searchPlaceholder')}
            clearLabel={t('list.clearSearch')}
            value={searchInput}
            onChange={setSearchInput}
            width={360}
            testId="projects-search"
          />
          <Switch
            label={t('list.createdByMe')}
            checked={mine}
            onChange={(event) => update({ mine: event.currentTarget.checked ? '1' : null })}
            data-testid="projects-mine"
          />
        </Group>

        <Tabs value={tab} onChange={(value) => isTab(value) && update({ tab: value })}>
          <Tabs.List px="md">
            {TABS.map((value) => (
              <Tabs.Tab
                key={value}
                value={value}
                data-testid={`projects-tab-${value}`}
                rightSection={
                  <Badge
                    size="sm"
                    variant={value === tab ? 'filled' : 'light'}
                    color={value === tab ? 'indigo' : 'gray'}
                  >
                    {data ? data.tabs[value] : '–'}
                  </Badge>
                }
              >
                {t(`tabs.${value}`)}
              </Tabs.Tab>
            ))}
          </Tabs.List>
        </Tabs>

        <ListBody
          list={list}
          testId="projects-empty"
          texts={listTexts(t, t('empty.clearFilters'))}
          filtered={filtered}
          onClearFilters={() => {
            setSearchInput('');
            update({ search: null, mine: null });
          }}
          empty={{
            icon: <IconFolderOpen size={28} />,
            title: t(`empty.${tab}.title`),
            text: t(`empty.${tab}.text`),
            action:
              tab === 'active' || tab === 'drafts' ? (
                <Group gap="sm" justify="center">
                  <Button variant="default" component={Link} to="/cabinet/projects/add">
                    {t('list.createWizard')}
                  </Button>
                  <Button onClick={createDialog.open}>{t('list.create')}</Button>
                </Group>
              ) : null,
          }}
          page={page}
          onPage={(value) => update({ page: String(value) })}
          table={(items) => <ProjectsTable items={items} />}
        />
      </Paper>

      <CreateProjectDialog opened={createOpened} onClose={createDialog.close} />
    </Stack>
  );
}

function ProjectsTable({ items }: { items: Project[] }) {
  const { t } = useTranslation('projects');
  const format = useProjectFormat();
  return (
    <Table.ScrollContainer minWidth={1040}>
      <Table highlightOnHover verticalSpacing="sm" horizontalSpacing="sm" data-testid="projects-table">
        <Table.Thead bg="gray.0">
          <Table.Tr>
            <Table.Th>{t('columns.project')}</Table.Th>
            <Table.Th>{t('columns.status')}</Table.Th>
            <Table.Th>{t('columns.platform')}</Table.Th>
            <Table.Th>{t('columns.flowType')}</Table.Th>
            <Table.Th>{t('columns.language')}</Table.Th>
            <Table.Th>{t('columns.owner')}</Table.Th>
            <Table.Th>{t('columns.created')}</Table.Th>
            <Table.Th>{t('columns.updated')}</Table.Th>
            <Table.Th>{t('columns.contents')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {items.map((project) => (
            <Table.Tr key={project.id} data-testid="project-row">
              <Table.Td miw={200} maw={300}>
                <Anchor component={Link} to={`/cabinet/projects/${project.id}`} fw={600} lineClamp={2}>
                  {project.title}
                </Anchor>
                {project.is_demo && <DemoBadge size="sm" my={4} />}
                {project.preparation && <PreparationBadge preparation={project.preparation} />}
                {project.description && (
                  <Text size="xs" c="dimmed" lineClamp={1}>
                    {project.description}
                  </Text>
                )}
              </Table.Td>
              <Table.Td>
                <StatusBadge status={project.status} />
              </Table.Td>
              <Table.Td>
                <Text size="sm">{t(`platforms.${project.platform}`)}</Text>
              </Table.Td>
              <Table.Td>
                <FlowTypeBadge flowType={project.flow_type} size="sm" short />
              </Table.Td>
              <Table.Td>
                <Text size="sm">{t(`languages.${project.respondent_language}`)}</Text>
              </Table.Td>
              <Table.Td>
                <Text size="sm">{project.owner.name || project.owner.username}</Text>
              </Table.Td>
              <Table.Td>
                <Text size="sm" style={{ whiteSpace: 'nowrap' }} title={format.dateTime(project.created_at)}>
                  {format.shortDate(project.created_at)}
                </Text>
              </Table.Td>
              <Table.Td>
                <Text size="sm" style={{ whiteSpace: 'nowrap' }} title={format.dateTime(project.updated_at)}>
                  {format.shortDate(project.updated_at)}
                </Text>
              </Table.Td>
              <Table.Td>
                <Group gap={10} wrap="nowrap">
                  <Count
                    icon={<IconChartDots3 size={14} />}
                    label={t('counts.researches')}
                    value={project.counts.researches}
                  />
                  <Count
                    icon={<IconListDetails size={14} />}
                    label={t('counts.scenarios')}
                    value={project.counts.scenarios}
                  />
                  <Count
                    icon={<IconLink size={14} />}
                    label={t('counts.quotaLinks')}
                    value={project.counts.quota_links}
                  />
                  <Count icon={<IconUsers size={14} />} label={t('counts.sessions')} value={project.counts.sessions} />
                </Group>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

function Count({ icon, label, value }: { icon: ReactNode; label: string; value: number }) {
  const format = useProjectFormat();
  return (
    <Tooltip label={label} withArrow>
      <Group gap={4} wrap="nowrap" c="dimmed">
        {icon}
        <VisuallyHidden>{label}</VisuallyHidden>
        <Text size="sm" c="dark">
          {format.number(value)}
        </Text>
      </Group>
    </Tooltip>
  );
}
