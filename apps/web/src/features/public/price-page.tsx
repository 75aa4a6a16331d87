import { type ExtraServiceId, type PackageId, PRICING, withVat } from '@emolens/contracts';
import {
  Badge,
  Box,
  Button,
  Container,
  Divider,
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
  IconChartHistogram,
  IconCheck,
  IconClock,
  IconFileText,
  IconInfoCircle,
  IconPlus,
  IconPresentation,
  IconUsersPlus,
} from '@tabler/icons-react';
import type { ComponentType } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useBenchmarkCreatives } from './benchmark-base.ts';
import classes from './public.module.css';
import { SectionHeader } from './section-header.tsx';
import { type Formatters, useFormatters } from './use-formatters.ts';

type Icon = ComponentType<{ size?: number; stroke?: number }>;

const POPULAR: PackageId = 'smart';

const EXTRA_ICONS: Record<ExtraServiceId, Icon> = {
  recruiting: IconUsersPlus,
  questionnaire: IconFileText,
  presentation: IconPresentation,
  customBenchmark: IconChartHistogram,
};

type Package = (typeof PRICING.packages)[number];

const BASE_PER_SESSION = (() => {
  const first = PRICING.packages[0];
  return first.price / first.sessions;
})();

function PackageCard({ pkg, f, creatives }: { pkg: Package; f: Formatters; creatives: number }) {
  const { t } = useTranslation('public');
  const popular = pkg.id === POPULAR;
  const perSession = pkg.price / pkg.sessions;
  const saving = Math.round((1 - perSession / BASE_PER_SESSION) * 100);
  const rate = f.number(PRICING.vatRate * 100);
  const includes = [
    t('price.includeSessions', { n: f.number(pkg.sessions), minutes: f.number(pkg.sessions * PRICING.sessionMinutes) }),
    t('price.includeContent'),
    t('price.includeReports'),
    creatives > 0 ? t('price.includeBenchmark', { n: f.number(creatives) }) : t('price.includeBenchmarkNoBase'),
    t('price.includePlatforms'),
  ];
  return (
    <Paper
      withBorder
      radius="lg"
      p="lg"
      pt="xl"
      className={popular ? classes.popular : undefined}
      data-testid={`package-${pkg.id}`}
      pos="relative"
    >
      {popular && (
        <Badge variant="filled" color="indigo" tt="none" size="lg" className={classes.popularBadge}>
          {t('price.popular')}
        </Badge>
      )}
      <Stack gap="md" h="100%">
        <div>
          <Title order={3} fz={22}>
            {t(`price.packages.${pkg.id}.name`)}
          </Title>
          <Text size="sm" c="dimmed" mt={2} mih={{ base: 0, lg: 44 }}>
            {t(`price.packages.${pkg.id}.tagline`)}
          </Text>
        </div>
        <Group gap={6} align="baseline">
          <Text fz={30} fw={800} lh={1} c="indigo.7">
            {f.number(pkg.sessions)}
          </Text>
          <Text c="dimmed" fw={500}>
            {t('price.sessions')}
          </Text>
        </Group>
        <div>
          <Text fz={24} fw={800} lh={1.2} style={{ whiteSpace: 'nowrap' }} data-testid="net-price">
            {f.money(pkg.price)}
          </Text>
          <Text size="sm" c="dimmed">
            {t('price.plusVat', { rate })}
          </Text>
          <Text size="sm" fw={600} mt={4} data-testid="gross-price">
            {t('price.gross', { amount: f.money(withVat(pkg.price)) })}
          </Text>
        </div>
        <Paper radius="md" p="sm" bg={popular ? 'indigo.0' : 'gray.0'}>
          <Text size="sm" fw={700}>
            {t('price.perSession', { amount: f.unitMoney(perSession) })}
          </Text>
          <Text size="xs" c="dimmed">
            {t('price.perSessionGross', { amount: f.unitMoney(withVat(pkg.price) / pkg.sessions) })}
          </Text>
          {saving > 0 && (
            <Text size="xs" c="teal.8" fw={600} mt={4}>
              {t('price.saving', { percent: f.number(saving) })}
            </Text>
          )}
        </Paper>
        <Divider />
        <Text size="xs" fw={700} c="dimmed" tt="uppercase">
          {t('price.includes')}
        </Text>
        <List
          spacing={8}
          size="sm"
          icon={
            <ThemeIcon size={18} radius="xl" variant="light" color="teal">
              <IconCheck size={12} />
            </ThemeIcon>
          }
        >
          {includes.map((item) => (
            <List.Item key={item}>{item}</List.Item>
          ))}
        </List>
        <Button
          component={Link}
          to={`/request-access?package=${pkg.id}`}
          data-testid={`price-choose-${pkg.id}`}
          mt="auto"
          fullWidth
          size="md"
          variant={popular ? 'filled' : 'light'}
          rightSection={<IconArrowRight size={16} />}
        >
          {t('price.choose')}
        </Button>
      </Stack>
    </Paper>
  );
}

function AdditionalPackage({ f }: { f: Formatters }) {
  const { t } = useTranslation('public');
  const { sessions, price } = PRICING.additionalPackage;
  return (
    <Paper withBorder radius="lg" p="xl" h="100%" data-testid="additional-package">
      <Group gap="sm" wrap="nowrap" mb="md">
        <ThemeIcon size={40} radius="md" variant="light">
          <IconPlus size={22} />
        </ThemeIcon>
        <Title order={3} fz={20}>
          {t('price.additional.title')}
        </Title>
      </Group>
      <Text size="sm" c="dimmed" lh={1.55}>
        {t('price.additional.text', { n: f.number(sessions) })}
      </Text>
      <Group gap={8} align="baseline" mt="lg" wrap="wrap">
        <Text fz={26} fw={800} lh={1.2}>
          {f.money(price)}
        </Text>
        <Text size="sm" c="dimmed">
          {t('price.net')}
        </Text>
      </Group>
      <Text size="sm" mt={4}>
        <Text span c="dimmed">
          {t('price.plusVat', { rate: f.number(PRICING.vatRate * 100) })} ·{' '}
        </Text>
        <Text span fw={600}>
          {t('price.gross', { amount: f.money(withVat(price)) })}
        </Text>
      </Text>
      <Text size="sm" fw={600} mt="sm">
        {t('price.perSession', { amount: f.unitMoney(price / sessions) })}
      </Text>
    </Paper>
  );
}

function InfoCard({ Icon, title, text }: { Icon: Icon; title: string; text: string }) {
  return (
    <Paper withBorder radius="lg" p="xl" h="100%">
      <Group gap="sm" wrap="nowrap" mb="md">
        <ThemeIcon size={40} radius="md" variant="light" color="violet">
          <Icon size={22} />
        </ThemeIcon>
        <Title order={3} fz={20}>
          {title}
        </Title>
      </Group>
      <Text size="sm" c="dimmed" lh={1.55}>
        {text}
      </Text>
    </Paper>
  );
}

function ExtraServices({ f }: { f: Formatters }) {
  const { t } = useTranslation('public');
  return (
    <Box component="section" className={`${classes.section} ${classes.sectionTinted}`} mt={{ base: 56, md: 88 }}>
      <Container size="lg">
        <SectionHeader title={t('price.extras.title')} description={t('price.extras.subtitle')} />
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="lg" mt={40}>
          {PRICING.extraServices.map((service) => {
            const Icon = EXTRA_ICONS[service.id];
            return (
              <Paper key={service.id} withBorder radius="lg" p="lg" data-testid={`extra-${service.id}`}>
                <Group gap="md" wrap="nowrap" align="flex-start">
                  <ThemeIcon size={44} radius="md" variant="light">
                    <Icon size={24} stroke={1.7} />
                  </ThemeIcon>
                  <Box style={{ flex: 1 }}>
                    <Text fw={700}>{t(`price.extras.${service.id}.name`)}</Text>
                    <Text size="sm" c="dimmed" mt={4} lh={1.55}>
                      {t(`price.extras.${service.id}.description`)}
                    </Text>
                    <Group gap={8} align="baseline" mt="sm" wrap="wrap">
                      <Text fw={800} fz="lg">
                        {f.money(service.price)}
                      </Text>
                      <Text size="xs" c="dimmed">
                        {t('price.net')} · {t('price.gross', { amount: f.money(withVat(service.price)) })}
                      </Text>
                    </Group>
                  </Box>
                </Group>
              </Paper>
            );
          })}
        </SimpleGrid>
      </Container>
    </Box>
  );
}

export function PricePage() {
  const { t } = useTranslation('public');
  const f = useFormatters();
  const creatives = useBenchmarkCreatives();
  const rate = f.number(PRICING.vatRate * 100);
  const minutes = f.number(PRICING.sessionMinutes);
  return (
    <div className={classes.page}>
      <Box component="section" className={`${classes.hero} ${classes.pageHero}`}>
        <Container size="lg">
          <Stack gap="sm" align="center" ta="center" maw={760} mx="auto">
            <Text className={classes.eyebrow}>{t('price.eyebrow')}</Text>
            <Title order={1} className={classes.pageTitle} data-testid="price-title">
              {t('price.title')}
            </Title>
            <Text size="lg" c="dimmed">
              {t('price.subtitle')}
            </Text>
            <Paper radius="xl" px="md" py={8} mt="xs" shadow="xs" data-testid="vat-note">
              <Group gap={8} wrap="nowrap" justify="center">
                <IconInfoCircle size={18} color="var(--mantine-color-indigo-6)" style={{ flexShrink: 0 }} />
                <Text size="sm" fw={600} c="indigo.7">
                  {t('price.vatNote', { rate })}
                </Text>
              </Group>
            </Paper>
          </Stack>
        </Container>
      </Box>
      <Container size="lg" mt={{ base: 8, md: 0 }}>
        <SimpleGrid cols={{ base: 1, sm: 2, lg: 4 }} spacing="lg">
          {PRICING.packages.map((pkg) => (
            <PackageCard key={pkg.id} pkg={pkg} f={f} creatives={creatives} />
          ))}
        </SimpleGrid>
        <SimpleGrid cols={{ base: 1, md: 3 }} spacing="lg" mt={{ base: 32, md: 48 }}>
          <AdditionalPackage f={f} />
          <InfoCard
            Icon={IconClock}
            title={t('price.sessionTitle')}
            text={t('price.sessionText', { minutes, double: f.number(PRICING.sessionMinutes * 2) })}
          />
          <InfoCard
            Icon={IconChartHistogram}
            title={
              creatives > 0 ? t('price.benchmarkTitle', { n: f.number(creatives) }) : t('price.benchmarkTitleNoBase')
            }
            text={t('price.benchmarkText')}
          />
        </SimpleGrid>
      </Container>
      <ExtraServices f={f} />
      <Container size="lg" mt={{ base: 48, md: 64 }}>
        <Stack className={classes.ctaBand} align="center" ta="center" gap="md">
          <Title order={2} c="white" className={classes.sectionTitle} maw={720}>
            {t('price.ctaTitle')}
          </Title>
          <Text c="indigo.1" size="lg" maw={640}>
            {t('price.ctaText')}
          </Text>
          <Group gap="sm" justify="center" mt="sm">
            <Button
              component={Link}
              to="/request-access"
              size="md"
              variant="white"
              rightSection={<IconArrowRight size={18} />}
              data-testid="price-request-access"
            >
              {t('requestAccess.title')}
            </Button>
            <Button component={Link} to="/login" size="md" variant="outline" color="white">
              {t('price.login')}
            </Button>
            <Button component={Link} to="/docs" size="md" variant="outline" color="white">
              {t('price.faq')}
            </Button>
          </Group>
        </Stack>
      </Container>
    </div>
  );
}
