import {
  builtShape,
  type ReportArea,
  type ReportItem,
  type ReportOutput,
  reportFormat,
  shapeAt,
  shapeBounds,
} from '@emolens/contracts';
import { Box, Button, Group, Paper, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import { IconVectorSpline } from '@tabler/icons-react';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { AreaKind } from './area-kind.tsx';
import { ShapeLayer, ShapeOutline } from './area-shape.tsx';
import { FixationFilterFacts } from './fixation-filter-facts.tsx';
import { AreaDrawer } from './report-area-drawer.tsx';

/**
 * Area outlines over the item (the heatmap's frame): numbered, so the table below names them. Over a playing video
 * (`time`, s), only the areas whose window holds that moment, a moving one where it is then (decision 044).
 */
export function AreaOutlines({ item, time }: { item: ReportItem; time?: number }) {
  if (!item.width || !item.height || !item.areas.length) return null;
  const w = item.width;
  const h = item.height;
  const shown = item.areas
    .filter((a) => time === undefined || ((a.from ?? 0) <= time && time < (a.to ?? Number.POSITIVE_INFINITY)))
    .map((a) => ({
      area: a,
      shape: shapeAt({ shape: builtShape(a), key_frames: a.key_frames }, time ?? a.key_frames?.[0]?.t ?? 0),
    }));
  return (
    <>
      <ShapeLayer width={w} height={h}>
        {shown.map(({ area, shape }) => (
          <g key={area.id}>
            <ShapeOutline shape={shape} stroke="rgba(0, 0, 0, 0.6)" width={4} />
            <ShapeOutline shape={shape} stroke="rgba(255, 255, 255, 0.95)" testId="area-outline" />
          </g>
        ))}
      </ShapeLayer>
      {shown.map(({ area, shape }) => {
        const b = shapeBounds(shape);
        return (
          <Text
            key={area.id}
            span
            size="xs"
            fw={700}
            px={4}
            data-testid="area-outline-label"
            style={{
              position: 'absolute',
              left: `${(b.x / w) * 100}%`,
              top: `${(b.y / h) * 100}%`,
              background: 'rgba(0,0,0,0.65)',
              color: 'white',
              borderRadius: 3,
              pointerEvents: 'none',
            }}
          >
            {area.id}
          </Text>
        );
      })}
    </>
  );
}

/**
 * Areas of interest of the item (design section 8) — the shelf's zones and those drawn on the report, which the
 * analyst draws here on an image item: per area, the share of respondents with gaze on the item who
 * fixated in it, time to first fixation, dwell time and share, revisits and fixations — table on desktop, cards
 * on a phone.
 */
export function AreasPanel({ report, item, timeline }: { report: ReportOutput; item: ReportItem; timeline: string }) {
  const { t, i18n } = useTranslation('reportView');
  const [drawing, setDrawing] = useState(false);
  // Areas are drawn on images (pictures, shelf images, screenshots) and on a video's frames, with a time window.
  const isVideo = timeline === 'video';
  const drawable = !!item.width && !!item.height && !!item.media_id;
  if (!item.areas.length && !drawable) return null;
  const language = i18n.resolvedLanguage ?? 'en';
  // The presentation writes these numbers by the same rule.
  const format = reportFormat(language);
  const dash = '—';
  const cells = (a: ReportArea): [string, ReactNode][] => [
    [t('areas.looked'), `${format.percent(a.looked_share)} (${a.looked} / ${a.respondents})`],
    [
      t('areas.ttff'),
      a.time_to_first_fixation === null ? dash : t('areas.seconds', { value: format.number(a.time_to_first_fixation) }),
    ],
    [t('areas.dwell'), t('areas.seconds', { value: format.number(a.dwell_time) })],
    [t('areas.dwellShare'), format.percent(a.dwell_share)],
    [t('areas.revisits'), a.revisits === null ? dash : format.number(a.revisits)],
    [t('areas.fixations'), format.number(a.fixation_count)],
    ...(a.clicks === null ? [] : [[t('areas.clicks'), format.number(a.clicks)] as [string, ReactNode]]),
  ];
  return (
    <Paper withBorder radius="lg" p={{ base: 'md', sm: 'xl' }} data-testid="report-areas">
      <Stack gap="md">
        <Group justify="space-between" align="flex-start" gap="sm">
          <Stack gap={2}>
            <Title order={3} size="h4">
              {t('areas.title')}
            </Title>
            <Text size="sm" c="dimmed" data-testid="areas-hint">
              {t(isVideo ? 'areas.hintVideo' : 'areas.hint')}
            </Text>
          </Stack>
          {drawable && report.can.rebuild && (
            <Button
              size="xs"
              variant="light"
              leftSection={<IconVectorSpline size={14} />}
              onClick={() => setDrawing(true)}
              data-testid="areas-draw"
            >
              {t('draw.open')}
            </Button>
          )}
        </Group>
        {!item.areas.length && (
          <Text size="sm" c="dimmed" data-testid="areas-empty">
            {t(isVideo ? 'areas.emptyVideo' : 'areas.empty')}
          </Text>
        )}
        {drawing && (
          <AreaDrawer
            researchId={report.campaign_id}
            reportId={report.id}
            item={item}
            isVideo={isVideo}
            all={report.areas}
            opened={drawing}
            onClose={() => setDrawing(false)}
          />
        )}
        {item.areas.length > 0 && (
          <>
            <Box visibleFrom="md">
              <Table striped verticalSpacing="xs" fz="sm">
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>{t('areas.area')}</Table.Th>
                    {cells(item.areas[0] as ReportArea).map(([label]) => (
                      <Table.Th key={label}>{label}</Table.Th>
                    ))}
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {item.areas.map((a) => (
                    <Table.Tr key={a.id} data-testid="area-row">
                      <Table.Td style={{ overflowWrap: 'anywhere' }}>
                        <Text span fw={700} mr={6}>
                          {a.id}
                        </Text>
                        {a.name}
                        {a.source === 'drawn' && (
                          <Text span size="xs" c="dimmed" ml={6}>
                            {t('areas.drawn')}
                          </Text>
                        )}
                        <AreaKind area={a} isVideo={isVideo} format={format.number} />
                      </Table.Td>
                      {cells(a).map(([label, value]) => (
                        <Table.Td key={label}>{value}</Table.Td>
                      ))}
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Box>
            <Stack gap="sm" hiddenFrom="md">
              {item.areas.map((a) => (
                <Paper key={a.id} withBorder radius="md" p="sm" data-testid="area-card">
                  <Text size="sm" fw={600} mb={6} style={{ overflowWrap: 'anywhere' }}>
                    {a.id}. {a.name}
                  </Text>
                  <Box mt={-4} mb={6}>
                    <AreaKind area={a} isVideo={isVideo} format={format.number} card />
                  </Box>
                  <SimpleGrid cols={2} spacing="xs" verticalSpacing={6}>
                    {cells(a).map(([label, value]) => (
                      <Box key={label}>
                        <Text size="xs" c="dimmed">
                          {label}
                        </Text>
                        <Text size="sm">{value}</Text>
                      </Box>
                    ))}
                  </SimpleGrid>
                </Paper>
              ))}
            </Stack>
            {/* The figures above count fixations: which filter made them, with its settings (decision 042). */}
            {report.snapshot && <FixationFilterFacts snapshot={report.snapshot} />}
          </>
        )}
      </Stack>
    </Paper>
  );
}
