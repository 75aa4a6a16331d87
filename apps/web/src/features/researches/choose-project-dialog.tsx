import { Alert, Button, Center, Group, Loader, Modal, Select, Stack, Text } from '@mantine/core';
import { IconFolderPlus, IconInfoCircle } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { useDraftProjects } from './api.ts';

export type CreateTarget = 'form' | 'contentless';

/** The address of the create form of a research in a project. */
export function createPath(target: CreateTarget, projectId: string): string {
  const project = encodeURIComponent(projectId);
  return target === 'form'
    ? `/cabinet/campaign/new/form?project=${project}&isCreateNewFlow=true`
    : `/cabinet/campaign/new/contentless?project=${project}`;
}

/** "Create research": asks which draft project of the user's the research goes into. */
export function ChooseProjectDialog({
  target,
  onClose,
  projectId,
}: {
  target: CreateTarget | null;
  onClose: () => void;
  /** The project filter of the list, chosen first when it is a draft. */
  projectId?: string;
}) {
  const { t } = useTranslation('researches');
  const navigate = useNavigate();
  const drafts = useDraftProjects();
  const [chosen, setChosen] = useState<string | null>(null);
  const items = drafts.data?.items ?? [];

  useEffect(() => {
    if (target === null) return;
    const only = items.length === 1 ? items[0]?.id : undefined;
    const filtered = items.find((p) => p.id === projectId)?.id;
    setChosen((previous) => previous ?? filtered ?? only ?? null);
  }, [target, items, projectId]);

  const close = () => {
    onClose();
    setChosen(null);
  };

  return (
    <Modal
      opened={target !== null}
      onClose={close}
      title={target === 'contentless' ? t('create.contentlessTitle') : t('create.title')}
      centered
      size="md"
      data-testid="choose-project-dialog"
    >
      {drafts.isPending ? (
        <Center py="xl">
          <Loader size="sm" />
        </Center>
      ) : items.length === 0 ? (
        <Stack gap="md">
          <Alert color="indigo" variant="light" icon={<IconInfoCircle size={18} />} title={t('create.noDraftsTitle')}>
            {t('create.noDraftsText')}
          </Alert>
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              {t('actions.cancel')}
            </Button>
            <Button component={Link} to="/cabinet/projects" leftSection={<IconFolderPlus size={16} />}>
              {t('create.toProjects')}
            </Button>
          </Group>
        </Stack>
      ) : (
        <form
          onSubmit={(event) => {
            event.preventDefault();
            if (!chosen || !target) return;
            close();
            navigate(createPath(target, chosen));
          }}
        >
          <Stack gap="md">
            <Text size="sm" c="dimmed">
              {target === 'contentless' ? t('create.contentlessText') : t('create.text')}
            </Text>
            <Select
              label={t('create.project')}
              description={t('create.projectHint')}
              placeholder={t('create.projectPlaceholder')}
              data={items.map((p) => ({ value: p.id, label: p.title }))}
              value={chosen}
              onChange={setChosen}
              searchable
              nothingFoundMessage={t('create.nothingFound')}
              allowDeselect={false}
              comboboxProps={{ withinPortal: true }}
              data-autofocus
              data-testid="choose-project"
            />
            <Group justify="flex-end">
              <Button variant="default" onClick={close}>
                {t('actions.cancel')}
              </Button>
              <Button type="submit" disabled={!chosen} data-testid="choose-project-continue">
                {t('create.continue')}
              </Button>
            </Group>
          </Stack>
        </form>
      )}
    </Modal>
  );
}
