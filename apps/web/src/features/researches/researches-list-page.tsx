import { CONTENT_TYPES, type ContentType, type Research } from '@emolens/contracts';
import { Anchor, Button, Group, Paper, Select, Stack, Table, Text, Title, Tooltip } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconChartDots3, IconCircleOff, IconFolder, IconPlus } from '@tabler/icons-react';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ListBody, ListSearch, listTexts } from '../../components/list-states.tsx';
import { SEARCH_DELAY_MS, useListAddress } from '../../components/use-list-address.ts';
import { useUser } from '../auth/api.ts';
import { useProjectList } from '../projects/api.ts';
import { useResearchList } from './api.ts';
import { ChooseProjectDialog, type CreateTarget } from './choose-project-dialog.tsx';
import { researchPath } from './paths.ts';
import { ContentTypeLabel, ResearchStatusBadge, useResearchFormat } from './research-ui.tsx';

const PAGE_SIZE = 20;

function isContentType(value: string | null): value is ContentType {
  return value !== null && (CONTENT_TYPES as readonly string[]).includes(value);
}

/** Spec section 2: the researches list with search by name or ID, content-type filter, and creation. */
export function ResearchesListPage() {
  const { t } = useTranslation('researches');
  const { params, search, page, update, searchInput, setSearchInput } = useListAddress();
  const isArmi = useUser().data?.is_armi_user === true;
  const [createTarget, setCreateTarget] = useState<CreateTarget | null>(null);

  const rawType = params.get('content_type');
  const contentType = isContentType(rawType) ? rawType : null;
  const projectId = params.get('project') ?? '';

  const list = useResearchList({
    project_id: projectId || undefined,
    search: search || undefined,
    content_type: contentType ?? undefined,
    page,
    page_size: PAGE_SIZE,
  });
  const filtered = search !== '' || contentType !== null || projectId !== '';

  const clearFilters = () => {
    setSearchInput('');
    update({ search: null, content_type: null, project: null });
  };

  /** The create buttons of the header and of the empty list; test ids only on the header's. */
  const createButtons = (where: 'header' | 'empty') => (
    <Group gap="sm">
      {!isArmi && (
        <Button
          variant="default"
          leftSection={<IconCircleOff size={18} />}
          onClick={() => setCreateTarget('contentless')}
          data-testid={where === 'header' ? 'create-contentless' : undefined}
        >
          {t('list.createContentless')}
        </Button>
      )}
      <Button
        leftSection={<IconPlus size={18} />}
        onClick={() => setCreateTarget('form')}
        data-testid={where === 'header' ? 'create-campaign' : undefined}
      >
        {t('list.create')}
      </Button>
    </Group>
  );

  return (
    <Stack gap="lg" data-testid="campaigns-list">
      <Group justify="space-between" align="flex-end" gap="md">
        <Stack gap={4}>
          <Title order={2}>{t('list.title')}</Title>
          <Text c="dimmed">{t('list.subtitle')}</Text>
        </Stack>
        {createButtons('header')}
      </Group>

      <Paper withBorder radius="lg" style={{ overflow: 'hidden' }}>
        <Group p="md" gap="md" align="flex-end">
          <ListSearch
            label={t('list.search')}
            placeholder={t('list.searchPlaceholder')}
            clearLabel={t('list.clearSearch')}
            value={searchInput}
            onChange={setSearchInput}
            width={340}
            testId="campaigns-search"
          />
          <Select
            label={t('list.contentType')}
            placeholder={t('list.allContentTypes')}
            data={CONTENT_TYPES.map((value) => ({ value, label: t(`contentTypes.${value}`) }))}
            value={contentType}
            onChange={(value) => update({ content_type: value })}
            clearable
            w={{ base: '100%', sm: 220 }}
            data-testid="campaigns-content-type"
          />
          <ProjectFilter value={projectId} onChange={(value) => update({ project: value })} />
          {filtered && (
            <Button variant="subtle" onClick={clearFilters} data-testid="campaigns-clear-filters">
              {t('list.clearFilters')}
            </Button>
          )}
        </Group>

        <ListBody
          list={list}
          testId="campaigns-empty"
          texts={listTexts(t, t('list.clearFilters'))}
          filtered={filtered}
          onClearFilters={clearFilters}
          empty={{
            icon: <IconChartDots3 size={28} />,
            title: t('empty.title'),
            text: t('empty.text'),
            action: createButtons('empty'),
          }}
          page={page}
          onPage={(value) => update({ page: String(value) })}
          table={(items) => <ResearchesTable items={items} />}
          countOnSinglePage
          countTestId="campaigns-shown"
        />
      </Paper>

      <ChooseProjectDialog
        target={createTarget}
        onClose={() => setCreateTarget(null)}
        projectId={projectId || undefined}
      />
    </Stack>
  );
}

/** The optional project filter: the user's projects, searched on the server by name. */
function ProjectFilter({ value, onChange }: { value: string; onChange: (value: string | null) => void }) {
  const { t } = useTranslation('researches');
  const [searchValue, setSearchValue] = useState('');
  const [debounced] = useDebouncedValue(searchValue.trim(), SEARCH_DELAY_MS);
  const projects = useProjectList({ search: debounced || undefined, page: 1, page_size: 50 });
  const [selectedLabel, setSelectedLabel] = useState<string | null>(null);

  const options = useMemo(() => {
    const items = (projects.data?.items ?? []).map((p) => ({ value: p.id, label: p.title }));
    // The chosen project stays an option while the search shows others.
    if (value && !items.some((o) => o.value === value)) {
      items.unshift({ value, label: selectedLabel ?? t('list.projectById', { id: value.slice(0, 8) }) });
    }
    return items;
  }, [projects.data, value, selectedLabel, t]);

  return (
    <Select
      label={t('list.project')}
      placeholder={t('list.allProjects')}
      leftSection={<IconFolder size={16} />}
      data={options}
      value={value || null}
      onChange={(next, option) => {
        setSelectedLabel(option?.label ?? null);
        onChange(next);
      }}
      searchable
      searchValue={searchValue}
      onSearchChange={setSearchValue}
      filter={({ options: all }) => all}
      nothingFoundMessage={projects.isFetching ? t('list.loading') : t('create.nothingFound')}
      clearable
      w={{ base: '100%', sm: 260 }}
      data-testid="campaigns-project"
    />
  );
}

function ResearchesTable({ items }: { items: Research[] }) {
  const { t } = useTranslation('researches');
  const format = useResearchFormat();
  return (
    <Table.ScrollContainer minWidth={1100}>
      <Table highlightOnHover verticalSpacing="sm" horizontalSpacing="sm" data-testid="campaigns-table">
        <Table.Thead bg="gray.0">
          <Table.Tr>
            <Table.Th>{t('columns.name')}</Table.Th>
            <Table.Th>{t('columns.contentType')}</Table.Th>
            <Table.Th>{t('columns.project')}</Table.Th>
            <Table.Th ta="right">{t('columns.recordings')}</Table.Th>
            <Table.Th>{t('columns.engagement')}</Table.Th>
            <Table.Th ta="right">{t('columns.reports')}</Table.Th>
            <Table.Th>{t('columns.status')}</Table.Th>
            <Table.Th>{t('columns.updated')}</Table.Th>
            <Table.Th>{t('columns.created')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {items.map((research) => (
            <Table.Tr key={research.id} data-testid="campaign-row">
              <Table.Td miw={200} maw={300}>
                <Anchor component={Link} to={researchPath(research)} fw={600} lineClamp={2}>
                  {research.title}
                </Anchor>
                <Text size="xs" c="dimmed" ff="monospace" lineClamp={1} title={research.id}>
                  ID {research.id}
                </Text>
              </Table.Td>
              <Table.Td>
                <ContentTypeLabel type={research.content_type} />
              </Table.Td>
              <Table.Td maw={220}>
                <Anchor
                  component={Link}
                  to={`/cabinet/projects/${research.project.id}`}
                  size="sm"
                  lineClamp={2}
                  data-testid="campaign-project"
                >
                  {research.project.title}
                </Anchor>
              </Table.Td>
              <Table.Td ta="right">
                {/* The recordings open the research's statistics: its video processes and sessions. */}
                <Anchor
                  component={Link}
                  to={`/cabinet/campaign/${research.id}/statistic`}
                  size="sm"
                  data-testid="campaign-recordings-link"
                >
                  {format.number(research.video_count)}
                </Anchor>
              </Table.Td>
              <Table.Td>
                {research.latest_engagement === null ? (
                  <Tooltip label={t('list.noEngagement')} withArrow>
                    <Text size="sm" c="dimmed" span>
                      —
                    </Text>
                  </Tooltip>
                ) : (
                  <Text size="sm">{format.number(research.latest_engagement)}</Text>
                )}
              </Table.Td>
              <Table.Td ta="right">
                <Text size="sm">{format.number(research.report_count)}</Text>
              </Table.Td>
              <Table.Td>
                <ResearchStatusBadge status={research.status} />
              </Table.Td>
              <Table.Td>
                <Text size="sm" style={{ whiteSpace: 'nowrap' }}>
                  {format.date(research.updated_at)}
                </Text>
              </Table.Td>
              <Table.Td>
                <Text size="sm" style={{ whiteSpace: 'nowrap' }}>
                  {format.date(research.created_at)}
                </Text>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
