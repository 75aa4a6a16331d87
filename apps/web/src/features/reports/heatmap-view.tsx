import { drawable, gridImage, type HeatmapGrid, type HeatmapTheme, type ReportItem } from '@emolens/contracts';
import { Box, NumberInput, SegmentedControl, SimpleGrid, Stack, Text } from '@mantine/core';
import { useElementSize, useMergedRef } from '@mantine/hooks';
import { type ReactNode, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { decimalSeparator } from '../../i18n/format.ts';
import { translateMessage } from '../../i18n/messages.ts';
import { AreaOutlines } from './report-areas.tsx';
import { HEATMAP_LIMITS, type HeatmapSettings, withinLimits } from './report-view.ts';

/**
 * A box of the item's proportions (its natural size), at most `maxHeight` tall, that its picture or video and
 * the heatmap over it fill exactly: the grid's cells land where the content's pixels are.
 */
export function MediaFrame({
  width,
  height,
  maxHeight,
  children,
  background = 'var(--mantine-color-gray-1)',
}: {
  width: number | null;
  height: number | null;
  maxHeight: number;
  children: ReactNode;
  background?: string;
}) {
  const ratio = width && height ? width / height : 16 / 9;
  return (
    <Box
      pos="relative"
      mx="auto"
      w="100%"
      style={{ aspectRatio: String(ratio), maxWidth: `${Math.round(maxHeight * ratio)}px`, background }}
    >
      {children}
    </Box>
  );
}

/**
 * The density grid drawn over the box it sits in: cols × rows cells as an RGBA image on a small canvas, scaled
 * up smoothly (bilinear) to the box, blurred by the extra radius. Edge cells are repeated beyond the box so the
 * blur does not fade the edges. Nothing is drawn for a grid without samples.
 */
export function HeatmapOverlay({ grid, settings }: { grid: HeatmapGrid | null; settings: HeatmapSettings }) {
  // Mantine 9's useElementSize hands back a callback ref; the drawing reads the canvas through its own ref.
  const { ref: sizeRef, width, height } = useElementSize<HTMLCanvasElement>();
  const canvasRef = useRef<HTMLCanvasElement | null>(null);
  const ref = useMergedRef(sizeRef, canvasRef);

  useEffect(() => {
    const canvas = canvasRef.current;
    if (!canvas || width <= 0 || height <= 0) return;
    const dpr = window.devicePixelRatio || 1;
    canvas.width = Math.round(width * dpr);
    canvas.height = Math.round(height * dpr);
    const ctx = canvas.getContext('2d');
    if (!ctx) return;
    ctx.clearRect(0, 0, canvas.width, canvas.height);
    if (!drawable(grid)) return;
    const cellW = canvas.width / grid.cols;
    const cellH = canvas.height / grid.rows;
    const blur = settings.radius * dpr;
    const pad = blur > 0 ? Math.ceil((2 * blur) / Math.min(cellW, cellH)) + 1 : 0;
    const image = gridImage(grid, settings.theme, pad);
    const small = document.createElement('canvas');
    small.width = image.width;
    small.height = image.height;
    small.getContext('2d')?.putImageData(new ImageData(image.data, image.width, image.height), 0, 0);
    ctx.save();
    ctx.imageSmoothingEnabled = true;
    ctx.imageSmoothingQuality = 'high';
    ctx.globalAlpha = settings.opacity;
    ctx.filter = blur > 0 ? `blur(${blur}px)` : 'none';
    ctx.drawImage(small, -pad * cellW, -pad * cellH, image.width * cellW, image.height * cellH);
    ctx.restore();
  }, [width, height, grid, settings]);

  return (
    <canvas
      ref={ref}
      data-testid="heatmap-canvas"
      aria-hidden
      style={{ position: 'absolute', inset: 0, width: '100%', height: '100%', pointerEvents: 'none' }}
    />
  );
}

/** A picture, shelf image or site screen with its heatmap over it. */
export function HeatmapPicture({
  item,
  src,
  grid,
  settings,
  children,
}: {
  item: ReportItem;
  src: string | null;
  grid: HeatmapGrid | null;
  settings: HeatmapSettings;
  /** Drawn over the heatmap (a respondent's gaze plot). */
  children?: ReactNode;
}) {
  return (
    <MediaFrame width={item.width} height={item.height} maxHeight={560}>
      {src && (
        <img
          src={src}
          alt={item.label}
          style={{ position: 'absolute', inset: 0, width: '100%', height: '100%', objectFit: 'fill', display: 'block' }}
        />
      )}
      <HeatmapOverlay grid={grid} settings={settings} />
      <AreaOutlines item={item} />
      {children}
    </MediaFrame>
  );
}

type Draft = { opacity: number | string; radius: number | string };

/**
 * The heatmap's look: theme, opacity (0.1–1) and extra blur (0–50 px). A number out of range says so (the
 * catalogue's 'must be between') and the heatmap keeps the last good value.
 */
export function HeatmapSettingsFields({
  value,
  onChange,
}: {
  value: HeatmapSettings;
  onChange: (value: HeatmapSettings) => void;
}) {
  const { t, i18n } = useTranslation('reportView');
  const [draft, setDraft] = useState<Draft>({ opacity: value.opacity, radius: value.radius });
  // "0,7" in Russian: the field writes and reads the language's decimal separator (issue 28, item 7).
  const separator = decimalSeparator(i18n.resolvedLanguage ?? 'en');
  const errorOf = (field: keyof Draft) => {
    const limits = HEATMAP_LIMITS[field];
    return withinLimits(draft[field], limits)
      ? undefined
      : translateMessage({ key: 'validation.between', params: { first: limits.min, second: limits.max } });
  };
  const change = (field: keyof Draft, raw: number | string) => {
    setDraft((d) => ({ ...d, [field]: raw }));
    if (withinLimits(raw, HEATMAP_LIMITS[field])) onChange({ ...value, [field]: raw });
  };

  return (
    <Stack gap="sm" data-testid="heatmap-settings">
      <Stack gap={4}>
        <Text size="sm" fw={500}>
          {t('heatmap.theme')}
        </Text>
        <SegmentedControl
          value={value.theme}
          onChange={(theme) => onChange({ ...value, theme: theme as HeatmapTheme })}
          data={[
            { value: 'colour', label: t('heatmap.themes.colour') },
            { value: 'dark', label: t('heatmap.themes.dark') },
          ]}
          data-testid="heatmap-theme"
        />
      </Stack>
      {/* A label wrapping to two lines (Russian on a phone) keeps both fields on one line. */}
      <SimpleGrid cols={2} spacing="sm" style={{ alignItems: 'end' }}>
        <NumberInput
          label={t('heatmap.opacity')}
          value={draft.opacity}
          onChange={(v) => change('opacity', v)}
          min={HEATMAP_LIMITS.opacity.min}
          max={HEATMAP_LIMITS.opacity.max}
          step={0.1}
          decimalScale={2}
          decimalSeparator={separator}
          clampBehavior="none"
          error={errorOf('opacity')}
          data-testid="heatmap-opacity"
        />
        <NumberInput
          label={t('heatmap.radius')}
          value={draft.radius}
          onChange={(v) => change('radius', v)}
          min={HEATMAP_LIMITS.radius.min}
          max={HEATMAP_LIMITS.radius.max}
          step={1}
          allowDecimal={false}
          clampBehavior="none"
          error={errorOf('radius')}
          data-testid="heatmap-radius"
        />
      </SimpleGrid>
    </Stack>
  );
}

/** What the heatmap stands on: samples, respondents with gaze, fixations and the kernel's width. */
export function HeatmapFacts({ item, grid }: { item: ReportItem; grid: HeatmapGrid | null }) {
  const { t, i18n } = useTranslation('reportView');
  const number = new Intl.NumberFormat(i18n.resolvedLanguage, { maximumFractionDigits: 1 });
  const facts: { key: string; label: string; value: string }[] = [
    { key: 'samples', label: t('heatmap.samples'), value: number.format(grid?.samples ?? 0) },
    { key: 'respondents', label: t('heatmap.gazeRespondents'), value: number.format(item.gaze_respondents) },
    { key: 'fixations', label: t('heatmap.fixations'), value: number.format(item.fixations) },
    {
      key: 'kernel',
      label: t('heatmap.kernel'),
      value: item.kernel_px === null ? '—' : t('heatmap.px', { value: number.format(item.kernel_px) }),
    },
  ];
  return (
    <Stack gap={6}>
      <SimpleGrid cols={2} spacing="xs" verticalSpacing={6} data-testid="heatmap-facts">
        {facts.map((fact) => (
          <Box key={fact.key} data-testid={`heatmap-${fact.key}`}>
            <Text size="xs" c="dimmed">
              {fact.label}
            </Text>
            <Text size="sm" fw={600}>
              {fact.value}
            </Text>
          </Box>
        ))}
      </SimpleGrid>
      <Text size="xs" c="dimmed">
        {t('heatmap.kernelHint')}
      </Text>
    </Stack>
  );
}
