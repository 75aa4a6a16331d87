import {
  Badge,
  Box,
  Button,
  Container,
  Grid,
  Group,
  List,
  Paper,
  SimpleGrid,
  Stack,
  Text,
  ThemeIcon,
  Title,
} from '@mantine/core';
import {
  IconArrowRight,
  IconBrandOpenSource,
  IconBrowser,
  IconBuildingStore,
  IconCircleCheck,
  IconDatabase,
  IconDevices,
  IconEye,
  IconFlame,
  IconForms,
  IconHeartbeat,
  IconMail,
  IconMoodSmile,
  IconPhoto,
  IconShieldCheck,
  IconSpeakerphone,
  IconUserScan,
  IconUsersGroup,
  IconVideo,
} from '@tabler/icons-react';
import type { ComponentType } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useBenchmarkCreatives } from './benchmark-base.ts';
import { HomeStats } from './home-stats.tsx';
import {
  CurveLegend,
  EMOTION_COLORS,
  EMOTIONS,
  EmotionCurveChart,
  HeatLegend,
  HeroReportMock,
  IllustrationBadge,
  ShelfHeatmap,
} from './illustrations.tsx';
import { PLATFORM_KEYS } from './platforms.ts';
import classes from './public.module.css';
import { RespondentJourney } from './respondent-journey.tsx';
import { SectionHeader } from './section-header.tsx';
import { useFormatters } from './use-formatters.ts';

type Icon = ComponentType<{ size?: number; stroke?: number }>;

const MEASURES: Array<{ key: string; Icon: Icon; color: string }> = [
  { key: 'emotions', Icon: IconMoodSmile, color: 'yellow' },
  { key: 'engagement', Icon: IconHeartbeat, color: 'pink' },
  { key: 'attention', Icon: IconEye, color: 'indigo' },
  { key: 'heatmap', Icon: IconFlame, color: 'orange' },
];

const AUDIENCES: Array<{ key: string; Icon: Icon }> = [
  { key: 'brands', Icon: IconSpeakerphone },
  { key: 'agencies', Icon: IconUsersGroup },
  { key: 'ux', Icon: IconDevices },
  { key: 'panels', Icon: IconDatabase },
];

const CONTENT_TYPES: Array<{ key: string; Icon: Icon }> = [
  { key: 'video', Icon: IconVideo },
  { key: 'pictures', Icon: IconPhoto },
  { key: 'shelf', Icon: IconBuildingStore },
  { key: 'site', Icon: IconBrowser },
  { key: 'contentless', Icon: IconForms },
];

const PRIVACY: Array<{ key: string; Icon: Icon }> = [
  { key: 'impersonal', Icon: IconUserScan },
  { key: 'consent', Icon: IconShieldCheck },
  { key: 'withdrawal', Icon: IconMail },
];

function Hero() {
  const { t } = useTranslation('public');
  return (
    <Box component="section" className={classes.hero}>
      <Container size="lg">
        <Grid gap={{ base: 32, md: 56 }} align="center">
          <Grid.Col span={{ base: 12, md: 6 }}>
            <Stack gap="lg">
              <Badge
                size="lg"
                variant="white"
                color="indigo"
                leftSection={<IconBrandOpenSource size={14} />}
                style={{ alignSelf: 'flex-start', boxShadow: 'var(--mantine-shadow-xs)' }}
                tt="none"
              >
                {t('home.hero.badge')}
              </Badge>
              <Title order={1} className={classes.heroTitle}>
                {t('home.hero.title')}
              </Title>
              <Text size="lg" c="dimmed" lh={1.6}>
                {t('home.hero.subtitle')}
              </Text>
              <List
                spacing={6}
                icon={
                  <ThemeIcon size={20} radius="xl" color="teal" variant="light">
                    <IconCircleCheck size={14} />
                  </ThemeIcon>
                }
              >
                <List.Item>{t('home.hero.point1')}</List.Item>
                <List.Item>{t('home.hero.point2')}</List.Item>
                <List.Item>{t('home.hero.point3')}</List.Item>
              </List>
              <Group gap="sm" mt="xs">
                <Button component={Link} to="/price" size="md" rightSection={<IconArrowRight size={18} />}>
                  {t('home.hero.ctaPrice')}
                </Button>
                <Button component={Link} to="/docs" size="md" variant="default">
                  {t('home.hero.ctaDocs')}
                </Button>
                <Button component={Link} to="/login" size="md" variant="subtle" px="sm">
                  {t('home.hero.ctaLogin')}
                </Button>
              </Group>
            </Stack>
          </Grid.Col>
          <Grid.Col span={{ base: 12, md: 6 }}>
            <HeroReportMock />
          </Grid.Col>
        </Grid>
      </Container>
    </Box>
  );
}

function Measures() {
  const { t } = useTranslation('public');
  return (
    <Box component="section" className={classes.section}>
      <Container size="lg">
        <SectionHeader
          eyebrow={t('home.measures.eyebrow')}
          title={t('home.measures.title')}
          description={t('home.measures.subtitle')}
        />
        <SimpleGrid cols={{ base: 1, sm: 2, lg: 4 }} spacing="lg" mt={48}>
          {MEASURES.map(({ key, Icon, color }) => (
            <Paper key={key} withBorder radius="lg" p="lg" className={classes.card}>
              <ThemeIcon size={48} radius="md" variant="light" color={color}>
                <Icon size={26} stroke={1.7} />
              </ThemeIcon>
              <Text fw={700} size="lg" mt="md" mb={6}>
                {t(`home.measures.${key}Title`)}
              </Text>
              <Text size="sm" c="dimmed" lh={1.55}>
                {t(`home.measures.${key}Text`)}
              </Text>
              {key === 'emotions' && (
                <Group gap={6} mt="sm">
                  {EMOTIONS.map((e) => (
                    <Badge
                      key={e}
                      variant="dot"
                      color={EMOTION_COLORS[e].split('.')[0]}
                      tt="none"
                      fw={500}
                      size="md"
                      styles={{ root: { borderColor: 'var(--mantine-color-gray-3)' } }}
                    >
                      {t(`home.emotions.${e}`)}
                    </Badge>
                  ))}
                </Group>
              )}
            </Paper>
          ))}
        </SimpleGrid>
      </Container>
    </Box>
  );
}

function HowItWorks() {
  const { t } = useTranslation('public');
  const { number } = useFormatters();
  const creatives = useBenchmarkCreatives();
  return (
    <Box component="section" className={`${classes.section} ${classes.sectionTinted}`}>
      <Container size="lg">
        <SectionHeader
          eyebrow={t('home.how.eyebrow')}
          title={t('home.how.title')}
          description={t('home.how.subtitle')}
        />
        <Box mt={48}>
          <RespondentJourney benchmarkCount={creatives > 0 ? number(creatives) : null} />
        </Box>
      </Container>
    </Box>
  );
}

function Visuals() {
  const { t } = useTranslation('public');
  return (
    <Box component="section" className={classes.section}>
      <Container size="lg">
        <SectionHeader eyebrow={t('home.visuals.eyebrow')} title={t('home.visuals.title')} />
        <SimpleGrid cols={{ base: 1, md: 2 }} spacing="xl" mt={48}>
          <Paper withBorder radius="lg" p={{ base: 'md', sm: 'xl' }}>
            <Stack gap="md" h="100%">
              <Group justify="space-between" align="flex-start" wrap="nowrap" gap="sm">
                <Text fw={700} size="lg">
                  {t('home.visuals.curveTitle')}
                </Text>
                <IllustrationBadge />
              </Group>
              <Text size="sm" c="dimmed" lh={1.55}>
                {t('home.visuals.curveText')}
              </Text>
              <Box mt="auto">
                <EmotionCurveChart />
              </Box>
              <CurveLegend />
              <Text size="xs" c="dimmed" fs="italic">
                {t('illustrationNote')}
              </Text>
            </Stack>
          </Paper>
          <Paper withBorder radius="lg" p={{ base: 'md', sm: 'xl' }}>
            <Stack gap="md" h="100%">
              <Group justify="space-between" align="flex-start" wrap="nowrap" gap="sm">
                <Text fw={700} size="lg">
                  {t('home.visuals.heatmapTitle')}
                </Text>
                <IllustrationBadge />
              </Group>
              <Text size="sm" c="dimmed" lh={1.55}>
                {t('home.visuals.heatmapText')}
              </Text>
              <Box mt="auto">
                <ShelfHeatmap />
              </Box>
              <HeatLegend />
              <Text size="xs" c="dimmed" fs="italic">
                {t('illustrationNote')}
              </Text>
            </Stack>
          </Paper>
        </SimpleGrid>
      </Container>
    </Box>
  );
}

function IconCards({
  items,
  prefix,
  cols,
}: {
  items: Array<{ key: string; Icon: Icon }>;
  prefix: string;
  cols: number;
}) {
  const { t } = useTranslation('public');
  return (
    <SimpleGrid cols={{ base: 1, sm: 2, lg: cols }} spacing="lg" mt={48}>
      {items.map(({ key, Icon }) => (
        <Paper key={key} withBorder radius="lg" p="lg" className={classes.card}>
          <ThemeIcon size={44} radius="md" variant="light">
            <Icon size={24} stroke={1.7} />
          </ThemeIcon>
          <Text fw={700} mt="md" mb={6}>
            {t(`${prefix}.${key}Title`)}
          </Text>
          <Text size="sm" c="dimmed" lh={1.55}>
            {t(`${prefix}.${key}Text`)}
          </Text>
        </Paper>
      ))}
    </SimpleGrid>
  );
}

function Audience() {
  const { t } = useTranslation('public');
  return (
    <Box component="section" className={`${classes.section} ${classes.sectionTinted}`}>
      <Container size="lg">
        <SectionHeader eyebrow={t('home.audience.eyebrow')} title={t('home.audience.title')} />
        <IconCards items={AUDIENCES} prefix="home.audience" cols={4} />
      </Container>
    </Box>
  );
}

function ContentTypes() {
  const { t } = useTranslation('public');
  return (
    <Box component="section" className={classes.section}>
      <Container size="lg">
        <SectionHeader eyebrow={t('home.content.eyebrow')} title={t('home.content.title')} />
        <IconCards items={CONTENT_TYPES} prefix="home.content" cols={5} />
      </Container>
    </Box>
  );
}

function Platforms() {
  const { t } = useTranslation('public');
  return (
    <Box component="section" className={`${classes.section} ${classes.sectionTinted}`}>
      <Container size="lg">
        <Grid gap={{ base: 32, md: 64 }} align="center">
          <Grid.Col span={{ base: 12, md: 5 }}>
            <SectionHeader
              align="left"
              eyebrow={t('home.platforms.eyebrow')}
              title={t('home.platforms.title')}
              description={t('home.platforms.text')}
            />
          </Grid.Col>
          <Grid.Col span={{ base: 12, md: 7 }}>
            <Group gap="sm">
              {PLATFORM_KEYS.map((key) => (
                <Paper key={key} withBorder radius="xl" px="lg" py="sm" shadow="xs">
                  <Text fw={600} size="sm">
                    {t(`platformNames.${key}`)}
                  </Text>
                </Paper>
              ))}
              <Paper radius="xl" px="lg" py="sm" bg="indigo.6">
                <Text fw={600} size="sm" c="white">
                  {t('home.platforms.own')}
                </Text>
              </Paper>
            </Group>
          </Grid.Col>
        </Grid>
      </Container>
    </Box>
  );
}

function PrivacyAndOpenSource() {
  const { t } = useTranslation('public');
  return (
    <Box component="section" className={classes.section}>
      <Container size="lg">
        <Grid gap={{ base: 32, md: 56 }}>
          <Grid.Col span={{ base: 12, md: 6 }}>
            <SectionHeader align="left" eyebrow={t('home.privacy.eyebrow')} title={t('home.privacy.title')} />
            <Stack gap="md" mt="xl">
              {PRIVACY.map(({ key, Icon }) => (
                <Paper key={key} withBorder radius="lg" p="lg">
                  <Group gap="md" wrap="nowrap" align="flex-start">
                    <ThemeIcon size={40} radius="md" variant="light" color="teal">
                      <Icon size={22} stroke={1.7} />
                    </ThemeIcon>
                    <div>
                      <Text fw={700} mb={4}>
                        {t(`home.privacy.${key}Title`)}
                      </Text>
                      <Text size="sm" c="dimmed" lh={1.55}>
                        {t(`home.privacy.${key}Text`)}
                      </Text>
                    </div>
                  </Group>
                </Paper>
              ))}
            </Stack>
          </Grid.Col>
          <Grid.Col span={{ base: 12, md: 6 }}>
            <Paper radius="lg" p={{ base: 'lg', md: 40 }} h="100%" bg="dark.8" c="white">
              <Stack gap="md">
                <Group gap="xs">
                  <IconBrandOpenSource size={20} color="var(--mantine-color-indigo-3)" />
                  <Text className={classes.eyebrow} c="indigo.3">
                    {t('home.openSource.eyebrow')}
                  </Text>
                </Group>
                <Title order={2} className={classes.sectionTitle} c="white">
                  {t('home.openSource.title')}
                </Title>
                <Text c="gray.4" lh={1.6}>
                  {t('home.openSource.text')}
                </Text>
                <List
                  spacing="sm"
                  mt="xs"
                  icon={
                    <ThemeIcon size={22} radius="xl" color="indigo.4" variant="light">
                      <IconCircleCheck size={15} />
                    </ThemeIcon>
                  }
                >
                  {(['point1', 'point2', 'point3', 'point4'] as const).map((p) => (
                    <List.Item key={p}>
                      <Text c="gray.2" size="sm">
                        {t(`home.openSource.${p}`)}
                      </Text>
                    </List.Item>
                  ))}
                </List>
              </Stack>
            </Paper>
          </Grid.Col>
        </Grid>
      </Container>
    </Box>
  );
}

export function CallToAction({ title, text }: { title: string; text: string }) {
  const { t } = useTranslation('public');
  return (
    <Container size="lg" mt={{ base: 8, md: 16 }}>
      <Stack className={classes.ctaBand} align="center" ta="center" gap="md">
        <Title order={2} c="white" className={classes.sectionTitle} maw={720}>
          {title}
        </Title>
        <Text c="indigo.1" size="lg" maw={640}>
          {text}
        </Text>
        <Group gap="sm" justify="center" mt="sm">
          <Button component={Link} to="/price" size="md" variant="white" rightSection={<IconArrowRight size={18} />}>
            {t('home.hero.ctaPrice')}
          </Button>
          <Button component={Link} to="/docs" size="md" variant="outline" color="white">
            {t('home.hero.ctaDocs')}
          </Button>
          <Button component={Link} to="/login" size="md" variant="subtle" color="white">
            {t('home.hero.ctaLogin')}
          </Button>
        </Group>
      </Stack>
    </Container>
  );
}

export function HomePage() {
  const { t } = useTranslation('public');
  return (
    <div className={classes.page}>
      <Hero />
      <HomeStats />
      <Measures />
      <HowItWorks />
      <Visuals />
      <Audience />
      <ContentTypes />
      <Platforms />
      <PrivacyAndOpenSource />
      <CallToAction title={t('home.cta.title')} text={t('home.cta.text')} />
    </div>
  );
}
