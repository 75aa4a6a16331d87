import { Accordion, Box, Button, Container, Grid, Group, Paper, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import {
  IconArrowRight,
  IconCamera,
  IconChartAreaLine,
  IconFocus2,
  IconPhoto,
  IconShieldLock,
  IconUsersGroup,
} from '@tabler/icons-react';
import type { ComponentType, MouseEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { PLATFORM_KEYS } from './platforms.ts';
import classes from './public.module.css';
import { useFormatters } from './use-formatters.ts';

/** Upload limits of spec section 5 (the byte-exact reading). */
const VIDEO_MAX_BYTES = 2_285_568_000;
const IMAGE_MAX_BYTES = 25_395_200;

export type Icon = ComponentType<{ size?: number; stroke?: number }>;

/** The FAQ's question groups, in page order; their texts are `docs.<id>.<question>Q` / `…A` of `public`. */
export const GROUPS: Array<{ id: string; Icon: Icon; questions: string[] }> = [
  { id: 'calibration', Icon: IconFocus2, questions: ['what', 'duration', 'accuracy', 'badFrames', 'check'] },
  { id: 'camera', Icon: IconCamera, questions: ['requirements', 'lighting', 'oneFace', 'lost', 'leave'] },
  { id: 'privacy', Icon: IconShieldLock, questions: ['consent', 'stored', 'impersonal', 'withdrawal', 'where'] },
  { id: 'content', Icon: IconPhoto, questions: ['video', 'images', 'shelf', 'site', 'contentless', 'scenarios'] },
  { id: 'platforms', Icon: IconUsersGroup, questions: ['which', 'toloka', 'cint', 'amazon', 'own', 'quotas'] },
  {
    id: 'reports',
    Icon: IconChartAreaLine,
    questions: ['metrics', 'types', 'ci', 'filters', 'benchmarks', 'processing', 'exports'],
  },
];

function sectionId(group: string): string {
  return `faq-${group}`;
}

function scrollToGroup(event: MouseEvent<HTMLAnchorElement>, group: string) {
  const target = document.getElementById(sectionId(group));
  if (!target) return;
  event.preventDefault();
  target.scrollIntoView({ behavior: 'smooth', block: 'start' });
}

/** An answer may hold several paragraphs, separated by line breaks in the translation. */
function Answer({ text }: { text: string }) {
  return (
    <Stack gap="sm">
      {text.split('\n').map((paragraph) => (
        <Text key={paragraph} size="sm" lh={1.65} c="gray.8">
          {paragraph}
        </Text>
      ))}
    </Stack>
  );
}

/** The values of the answers' placeholders, in the interface's language: `values(group, question)`. */
export function useAnswerValues(): (group: string, question: string) => Record<string, string> {
  const { t } = useTranslation('public');
  const { number } = useFormatters();
  const values = {
    size: '',
    bytes: '',
    platforms: PLATFORM_KEYS.map((key) => t(`platformNames.${key}`)).join(', '),
  };
  const answerValues: Record<string, typeof values> = {
    'content.video': {
      ...values,
      size: number(VIDEO_MAX_BYTES / 1e9, { style: 'unit', unit: 'gigabyte', maximumFractionDigits: 2 }),
      bytes: number(VIDEO_MAX_BYTES),
    },
    'content.images': {
      ...values,
      size: number(IMAGE_MAX_BYTES / 1e6, { style: 'unit', unit: 'megabyte', maximumFractionDigits: 1 }),
      bytes: number(IMAGE_MAX_BYTES),
    },
  };
  return (group, question) => answerValues[`${group}.${question}`] ?? values;
}

export function DocsPage() {
  const { t } = useTranslation('public');
  const answerValues = useAnswerValues();

  const nav = GROUPS.map(({ id, Icon }) => (
    <Button
      key={id}
      component="a"
      href={`#${sectionId(id)}`}
      onClick={(event: MouseEvent<HTMLAnchorElement>) => scrollToGroup(event, id)}
      variant="subtle"
      color="gray"
      justify="flex-start"
      leftSection={<Icon size={18} stroke={1.7} />}
      fw={500}
    >
      {t(`docs.${id}.title`)}
    </Button>
  ));

  return (
    <div className={classes.page}>
      <Box component="section" className={`${classes.hero} ${classes.pageHero}`}>
        <Container size="lg">
          <Stack gap="sm" maw={760}>
            <Text className={classes.eyebrow}>{t('docs.eyebrow')}</Text>
            <Title order={1} className={classes.pageTitle}>
              {t('docs.title')}
            </Title>
            <Text size="lg" c="dimmed">
              {t('docs.subtitle')}
            </Text>
          </Stack>
          <Group gap="xs" mt="lg" hiddenFrom="md">
            {GROUPS.map(({ id }) => (
              <Button
                key={id}
                component="a"
                href={`#${sectionId(id)}`}
                onClick={(event: MouseEvent<HTMLAnchorElement>) => scrollToGroup(event, id)}
                size="xs"
                variant="white"
                radius="xl"
              >
                {t(`docs.${id}.title`)}
              </Button>
            ))}
          </Group>
        </Container>
      </Box>
      <Container size="lg" mt={{ base: 32, md: 48 }}>
        <Grid gap={{ base: 32, md: 48 }}>
          <Grid.Col span={{ base: 12, md: 3 }} visibleFrom="md">
            <Stack gap={2} className={classes.docsNav} component="nav" aria-label={t('docs.sections')}>
              <Text size="xs" fw={700} c="dimmed" tt="uppercase" mb="xs" px="sm">
                {t('docs.sections')}
              </Text>
              {nav}
            </Stack>
          </Grid.Col>
          <Grid.Col span={{ base: 12, md: 9 }}>
            <Stack gap={48}>
              {GROUPS.map(({ id, Icon, questions }) => (
                <Box
                  key={id}
                  component="section"
                  id={sectionId(id)}
                  style={{ scrollMarginTop: 88 }}
                  data-testid={`faq-${id}`}
                >
                  <Group gap="sm" mb="md" wrap="nowrap">
                    <ThemeIcon size={36} radius="md" variant="light">
                      <Icon size={20} stroke={1.7} />
                    </ThemeIcon>
                    <Title order={2} fz={{ base: 22, md: 26 }}>
                      {t(`docs.${id}.title`)}
                    </Title>
                  </Group>
                  <Accordion variant="separated" radius="md" multiple defaultValue={[questions[0] ?? '']}>
                    {questions.map((q) => (
                      <Accordion.Item key={q} value={q}>
                        <Accordion.Control>
                          <Text fw={600} size="sm">
                            {t(`docs.${id}.${q}Q`)}
                          </Text>
                        </Accordion.Control>
                        <Accordion.Panel>
                          <Answer text={t(`docs.${id}.${q}A`, answerValues(id, q))} />
                        </Accordion.Panel>
                      </Accordion.Item>
                    ))}
                  </Accordion>
                </Box>
              ))}
              <Paper withBorder radius="lg" p={{ base: 'lg', md: 'xl' }} bg="indigo.0">
                <Grid align="center" gap="md">
                  <Grid.Col span={{ base: 12, sm: 7 }}>
                    <Text fw={700} size="lg">
                      {t('docs.moreTitle')}
                    </Text>
                    <Text size="sm" c="dimmed" mt={4}>
                      {t('docs.moreText')}
                    </Text>
                  </Grid.Col>
                  <Grid.Col span={{ base: 12, sm: 5 }}>
                    <Group gap="sm" justify="flex-end">
                      <Button component={Link} to="/login" rightSection={<IconArrowRight size={16} />}>
                        {t('price.login')}
                      </Button>
                      <Button component={Link} to="/price" variant="default">
                        {t('home.hero.ctaPrice')}
                      </Button>
                    </Group>
                  </Grid.Col>
                </Grid>
              </Paper>
            </Stack>
          </Grid.Col>
        </Grid>
      </Container>
    </div>
  );
}
