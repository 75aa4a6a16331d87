import { CALIBRATION_SECONDS, PRICING, REPORT_NAME_MAX, RESEARCH_DEFAULTS } from '@emolens/contracts';
import {
  Accordion,
  Badge,
  Box,
  Button,
  CloseButton,
  Flex,
  Group,
  Mark,
  NavLink,
  Paper,
  ScrollArea,
  Stack,
  Text,
  TextInput,
  ThemeIcon,
  Title,
} from '@mantine/core';
import { IconSearch, IconSearchOff } from '@tabler/icons-react';
import { Fragment, useDeferredValue, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { GROUPS, type Icon, useAnswerValues } from '../public/docs-page.tsx';
import { useFormatters } from '../public/use-formatters.ts';
import classes from './faq.module.css';
import { matchesAll, queryTerms, segments } from './search.ts';
import { CABINET_TOPICS } from './topics.ts';

type Part = 'cabinet' | 'general';

interface Entry {
  /** Unique on the page: the accordion item's value. */
  value: string;
  question: string;
  answer: string;
}

interface Topic {
  id: string;
  part: Part;
  Icon: Icon;
  title: string;
  entries: Entry[];
}

const PARTS: Part[] = ['cabinet', 'general'];
/** The cabinet's header (60 px) and a little air: where a topic scrolled to stops. */
const SCROLL_MARGIN = 76;

const sectionId = (topic: string) => `faq-${topic}`;

function scrollToTopic(topic: string) {
  document.getElementById(sectionId(topic))?.scrollIntoView({ behavior: 'smooth', block: 'start' });
}

/** The text with the query's words marked. */
function Highlighted({ text, terms }: { text: string; terms: readonly string[] }) {
  return (
    <>
      {segments(text, terms).map((segment, index) =>
        segment.match ? (
          // biome-ignore lint/suspicious/noArrayIndexKey: the segments of one text, in their fixed order.
          <Mark key={index} color="yellow.3" px={1} style={{ borderRadius: 3 }}>
            {segment.text}
          </Mark>
        ) : (
          // biome-ignore lint/suspicious/noArrayIndexKey: the segments of one text, in their fixed order.
          <Fragment key={index}>{segment.text}</Fragment>
        ),
      )}
    </>
  );
}

/** An answer's paragraphs (separated by line breaks in the translation), as on the public FAQ, with the matches marked. */
function Answer({ text, terms }: { text: string; terms: readonly string[] }) {
  return (
    <Stack gap="sm">
      {text.split('\n').map((paragraph) => (
        <Text key={paragraph} size="sm" lh={1.65} c="gray.8" className={classes.text}>
          <Highlighted text={paragraph} terms={terms} />
        </Text>
      ))}
    </Stack>
  );
}

/** The placeholders of the cabinet's answers: the product's own constants, in the interface's number format. */
function useCabinetValues(): Record<string, string> {
  const { number } = useFormatters();
  const sessions = Object.fromEntries(PRICING.packages.map(({ id, sessions }) => [id, number(sessions)]));
  return {
    ...sessions,
    newSeconds: number(CALIBRATION_SECONDS.new),
    oldSeconds: number(CALIBRATION_SECONDS.old),
    badFrames: number(RESEARCH_DEFAULTS.badFramesPercent),
    nameMax: number(REPORT_NAME_MAX),
    minutes: number(PRICING.sessionMinutes),
    extra: number(PRICING.additionalPackage.sessions),
  };
}

/**
 * Cabinet → FAQ (spec section 2; issue 15): the cabinet's own topics — building a project, quota links and
 * panels, calibration and data quality, reports and benchmarks, self-service and moderation, API access — and then
 * the public FAQ's groups (their texts are the public page's), searchable by the words of questions and answers.
 */
export function FaqPage() {
  const { t } = useTranslation('faq');
  const { t: publicT } = useTranslation('public');
  const publicValues = useAnswerValues();
  const values = useCabinetValues();
  const { number } = useFormatters();
  const [params, setParams] = useSearchParams();
  const [query, setQuery] = useState(() => params.get('q') ?? '');
  const input = useRef<HTMLInputElement>(null);
  const terms = queryTerms(useDeferredValue(query));
  const searching = terms.length > 0;
  const searchKey = terms.join(' ');
  // Which questions are open: while searching, every match until the reader closes some (per query).
  const [openState, setOpenState] = useState<{ key: string; open: string[] } | null>(null);

  const topics: Topic[] = [
    ...CABINET_TOPICS.map(({ id, Icon, questions }) => ({
      id: `cabinet-${id}`,
      part: 'cabinet' as const,
      Icon,
      title: t(`topics.${id}.title`),
      entries: questions.map((q) => ({
        value: `cabinet.${id}.${q}`,
        question: t(`topics.${id}.${q}Q`, values),
        answer: t(`topics.${id}.${q}A`, values),
      })),
    })),
    ...GROUPS.map(({ id, Icon, questions }) => ({
      id: `general-${id}`,
      part: 'general' as const,
      Icon,
      title: publicT(`docs.${id}.title`),
      entries: questions.map((q) => ({
        value: `general.${id}.${q}`,
        question: publicT(`docs.${id}.${q}Q`),
        answer: publicT(`docs.${id}.${q}A`, publicValues(id, q)),
      })),
    })),
  ];
  const shown = topics.map((topic) => ({
    ...topic,
    entries: searching
      ? topic.entries.filter((entry) => matchesAll([entry.question, entry.answer], terms))
      : topic.entries,
  }));
  const found = shown.reduce((sum, topic) => sum + topic.entries.length, 0);
  const open =
    openState?.key === searchKey
      ? openState.open
      : searching
        ? shown.flatMap((topic) => topic.entries.map((entry) => entry.value))
        : [];
  const setOpen = (next: string[]) => setOpenState({ key: searchKey, open: next });

  const search = (next: string) => {
    setQuery(next);
    setParams(
      (previous) => {
        const out = new URLSearchParams(previous);
        if (next.trim()) out.set('q', next);
        else out.delete('q');
        return out;
      },
      { replace: true, preventScrollReset: true },
    );
  };
  const clear = () => {
    search('');
    input.current?.focus();
  };

  const chips = shown
    .filter((topic) => topic.entries.length > 0)
    .map(({ id, Icon, title, entries }) => (
      <Button
        key={id}
        size="compact-sm"
        radius="xl"
        variant="default"
        leftSection={<Icon size={14} stroke={1.8} />}
        rightSection={
          searching ? (
            <Badge size="xs" circle variant="light">
              {entries.length}
            </Badge>
          ) : undefined
        }
        onClick={() => scrollToTopic(id)}
        fw={500}
        style={{ flexShrink: 0 }}
      >
        {title}
      </Button>
    ));

  const nav = PARTS.map((part) => (
    <Stack key={part} gap={2}>
      <Text size="xs" fw={700} c="dimmed" tt="uppercase" px="sm" mb={4}>
        {t(`nav.${part}`)}
      </Text>
      {shown
        .filter((topic) => topic.part === part)
        .map(({ id, Icon, title, entries }) => (
          <NavLink
            key={id}
            component="button"
            type="button"
            label={title}
            leftSection={<Icon size={18} stroke={1.7} />}
            rightSection={
              searching ? (
                <Badge size="xs" variant="light" color={entries.length ? 'indigo' : 'gray'}>
                  {entries.length}
                </Badge>
              ) : undefined
            }
            disabled={entries.length === 0}
            onClick={() => scrollToTopic(id)}
            classNames={{ root: classes.navLink, label: classes.navLabel }}
            data-testid={`faq-nav-${id}`}
          />
        ))}
    </Stack>
  ));

  return (
    <Stack gap="lg" maw={1100} data-testid="faq">
      <Stack gap={4}>
        <Title order={2}>{t('title')}</Title>
        <Text c="dimmed">{t('subtitle')}</Text>
      </Stack>

      <Stack gap={6}>
        <TextInput
          size="md"
          radius="md"
          type="search"
          value={query}
          onChange={(event) => search(event.currentTarget.value)}
          onKeyDown={(event) => {
            if (event.key === 'Escape' && query) {
              event.preventDefault();
              search('');
            }
          }}
          placeholder={t('search.placeholder')}
          aria-label={t('search.label')}
          leftSection={<IconSearch size={18} stroke={1.8} />}
          rightSection={query ? <CloseButton aria-label={t('search.clear')} onClick={clear} /> : null}
          ref={input}
          data-testid="faq-search"
        />
        <Text size="sm" c="dimmed" aria-live="polite" data-testid="faq-found">
          {searching
            ? t('search.found', { count: number(found) })
            : t('search.total', { count: number(found), topics: number(topics.length) })}
        </Text>
      </Stack>

      {chips.length > 0 && (
        <ScrollArea hiddenFrom="lg" type="never" aria-label={t('nav.label')}>
          <Group gap={8} wrap="nowrap" pb={2}>
            {chips}
          </Group>
        </ScrollArea>
      )}

      <Flex gap={32} align="flex-start">
        <Box
          component="nav"
          aria-label={t('nav.label')}
          visibleFrom="lg"
          w={272}
          className={classes.nav}
          style={{ top: SCROLL_MARGIN, maxHeight: `calc(100dvh - ${SCROLL_MARGIN + 16}px)` }}
        >
          <Stack gap="lg">{nav}</Stack>
        </Box>

        <Stack gap="xl" style={{ flex: 1, minWidth: 0 }}>
          {searching && found === 0 && (
            <Paper withBorder radius="lg" p={{ base: 'lg', sm: 'xl' }} data-testid="faq-empty">
              <Stack align="center" gap="sm" ta="center">
                <ThemeIcon size={48} radius="xl" variant="light" color="gray">
                  <IconSearchOff size={24} stroke={1.6} />
                </ThemeIcon>
                <Title order={3} size="h4" style={{ overflowWrap: 'anywhere' }}>
                  {t('search.emptyTitle', { query: query.trim() })}
                </Title>
                <Text size="sm" c="dimmed" maw={420}>
                  {t('search.emptyText')}
                </Text>
                <Button variant="light" onClick={clear} mt="xs" data-testid="faq-reset">
                  {t('search.clear')}
                </Button>
              </Stack>
            </Paper>
          )}
          {PARTS.map((part) => {
            const partTopics = shown.filter((topic) => topic.part === part && topic.entries.length > 0);
            if (!partTopics.length) return null;
            return (
              <Stack key={part} gap="md">
                <Text size="xs" fw={700} c="dimmed" tt="uppercase">
                  {t(`nav.${part}`)}
                </Text>
                {partTopics.map(({ id, Icon, title, entries }) => (
                  <Paper
                    key={id}
                    component="section"
                    id={sectionId(id)}
                    withBorder
                    radius="lg"
                    style={{ scrollMarginTop: SCROLL_MARGIN, overflow: 'hidden' }}
                    aria-labelledby={`${sectionId(id)}-title`}
                    data-testid={sectionId(id)}
                  >
                    <Group gap="sm" wrap="nowrap" px={{ base: 'md', sm: 'lg' }} pt="md" pb="xs">
                      <ThemeIcon size={34} radius="md" variant="light">
                        <Icon size={20} stroke={1.7} />
                      </ThemeIcon>
                      <Title order={3} size="h4" id={`${sectionId(id)}-title`}>
                        {title}
                      </Title>
                    </Group>
                    <Accordion
                      multiple
                      value={open}
                      onChange={setOpen}
                      chevronPosition="right"
                      classNames={{
                        root: classes.accordion,
                        item: classes.item,
                        control: classes.control,
                        content: classes.content,
                      }}
                    >
                      {entries.map((entry) => (
                        <Accordion.Item key={entry.value} value={entry.value} data-testid={`faq-item-${entry.value}`}>
                          <Accordion.Control>
                            <Text fw={600} size="sm" className={classes.text}>
                              <Highlighted text={entry.question} terms={terms} />
                            </Text>
                          </Accordion.Control>
                          <Accordion.Panel>
                            <Answer text={entry.answer} terms={terms} />
                          </Accordion.Panel>
                        </Accordion.Item>
                      ))}
                    </Accordion>
                  </Paper>
                ))}
              </Stack>
            );
          })}
        </Stack>
      </Flex>
    </Stack>
  );
}
