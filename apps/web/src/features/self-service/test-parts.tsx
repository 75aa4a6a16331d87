import type { SelfServiceTest } from '@emolens/contracts';
import { Badge, Button, Group, List, Loader, Paper, Stack, Text, ThemeIcon } from '@mantine/core';
import { IconEye, IconPencil, IconVideo } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { problemText } from './draft-form.ts';
import { useSelfServiceFormat } from './self-service-ui.tsx';

const VIDEO_COLORS: Record<string, string> = { uploading: 'blue', processing: 'yellow', ready: 'green', failed: 'red' };

/** The test's video as the server counts it: its state, length and what one interview takes. */
export function VideoFacts({ test }: { test: SelfServiceTest }) {
  const { t } = useTranslation('selfService');
  const format = useSelfServiceFormat();
  const video = test.video;
  if (!video) {
    return (
      <Text size="sm" c="dimmed" data-testid="self-service-video-none">
        {t('video.none')}
      </Text>
    );
  }
  const probing = video.duration_seconds === null && video.status !== 'failed';
  return (
    <Paper withBorder radius="md" p="sm" bg="gray.0" data-testid="self-service-video">
      <Group gap="md" wrap="nowrap" align="center">
        <ThemeIcon variant="light" size={40} radius="md">
          <IconVideo size={22} />
        </ThemeIcon>
        <Stack gap={4} style={{ minWidth: 0, flex: 1 }}>
          <Group gap="xs" wrap="nowrap">
            <Text size="sm" fw={600} truncate="end" title={video.filename}>
              {video.filename}
            </Text>
            <Badge size="sm" variant="light" color={VIDEO_COLORS[video.status] ?? 'gray'}>
              {t(`video.status.${video.status}`, { defaultValue: video.status })}
            </Badge>
          </Group>
          <Group gap="lg" data-testid="self-service-video-length">
            {probing ? (
              <Group gap={6}>
                <Loader size={12} />
                <Text size="xs" c="dimmed">
                  {t('video.probing')}
                </Text>
              </Group>
            ) : (
              <Text size="xs" c="dimmed">
                {t('video.length', {
                  length: video.duration_seconds === null ? '—' : format.duration(video.duration_seconds),
                })}
              </Text>
            )}
            {test.sessions_per_interview !== null && (
              <Text size="xs" c="dimmed">
                {t('video.perInterview', { n: test.sessions_per_interview })}
              </Text>
            )}
          </Group>
        </Stack>
      </Group>
    </Paper>
  );
}

export function ProblemList({ problems, test }: { problems: string[]; test?: SelfServiceTest }) {
  return (
    <List size="sm" spacing={4}>
      {problems.map((problem) => (
        <List.Item key={problem}>{problemText(problem, test)}</List.Item>
      ))}
    </List>
  );
}

export function SurveyLink({ test, edit }: { test: SelfServiceTest; edit: boolean }) {
  const { t } = useTranslation('selfService');
  return (
    <Button
      component={Link}
      to={`/cabinet/surveys/${encodeURIComponent(test.survey_id)}`}
      variant={edit ? 'filled' : 'light'}
      leftSection={edit ? <IconPencil size={16} /> : <IconEye size={16} />}
      data-testid="self-service-survey-link"
    >
      {edit ? t('survey.edit') : t('survey.view')}
    </Button>
  );
}
