import { CALIBRATION_TIMING, calibrationPathAt, RESPONDENT_LIMITS, VALIDATION_POINTS } from '@emolens/contracts';
import { Box, Button, Paper, Stack, Text, Title } from '@mantine/core';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { EventInput } from './event-log.ts';
import { FullScreen } from './full-screen.tsx';

const DOT = 28;
const { dotLogMs: DOT_LOG_MS, stillDotMs: STILL_DOT_MS } = CALIBRATION_TIMING;

const CHECKPOINT_POINTS = [
  [0.5, 0.5],
  [0.2, 0.25],
  [0.8, 0.75],
] as const;

/** The calibration's dot (the validation and checkpoint dots look the same), centred on x, y (viewport CSS px). */
export function Dot({ x, y, testId = 'calibration-dot' }: { x: number; y: number; testId?: string }) {
  return (
    <Box
      data-testid={testId}
      aria-hidden
      style={{
        position: 'absolute',
        left: x - DOT / 2,
        top: y - DOT / 2,
        width: DOT,
        height: DOT,
        borderRadius: '50%',
        background: 'white',
        boxShadow: '0 0 0 4px rgba(255,255,255,0.25)',
        display: 'grid',
        placeItems: 'center',
      }}
    >
      <Box style={{ width: 8, height: 8, borderRadius: '50%', background: 'var(--mantine-color-red-6)' }} />
    </Box>
  );
}

type Stage = 'intro' | 'countdown' | 'moving' | 'validation' | 'done';

export interface CalibrationProps {
  seconds: number;
  log: (event: EventInput) => void;
  /** The respondent pressed start (fullscreen is asked here, from their click): starts the recording. */
  onBegin: () => Promise<void>;
  onDone: () => void;
  /** The recording runs already (the calibration once more after a failed check): straight to the countdown. */
  begun?: boolean;
}

/**
 * Spec section 2 and 9: a countdown 3-2-1, then a dot moving smoothly over the whole screen for the
 * flow's seconds (its position logged every ~100 ms), then still validation dots of ~1.5 s each.
 */
export function Calibration({ seconds, log, onBegin, onDone, begun = false }: CalibrationProps) {
  const { t } = useTranslation('respondent');
  const [stage, setStage] = useState<Stage>(begun ? 'countdown' : 'intro');
  const [count, setCount] = useState(3);
  const [busy, setBusy] = useState(false);
  const [dot, setDot] = useState<{ x: number; y: number } | null>(null);
  const logRef = useRef(log);
  logRef.current = log;
  const doneRef = useRef(onDone);
  doneRef.current = onDone;

  useEffect(() => {
    if (stage !== 'countdown') return;
    setCount(3);
    let n = 3;
    const timer = window.setInterval(() => {
      n -= 1;
      if (n <= 0) {
        window.clearInterval(timer);
        setStage('moving');
      } else setCount(n);
    }, 1000);
    return () => window.clearInterval(timer);
  }, [stage]);

  useEffect(() => {
    if (stage !== 'moving') return;
    const total = seconds * 1000;
    const started = performance.now();
    let lastLog = -Infinity;
    let frame = 0;
    logRef.current({ type: 'calibration_start' });
    const tick = () => {
      const elapsed = performance.now() - started;
      if (elapsed >= total) {
        logRef.current({ type: 'calibration_end' });
        setStage('validation');
        return;
      }
      const p = calibrationPathAt(elapsed / total, window.innerWidth, window.innerHeight);
      setDot(p);
      if (elapsed - lastLog >= DOT_LOG_MS) {
        lastLog = elapsed;
        logRef.current({ type: 'calibration_dot', x: Math.round(p.x), y: Math.round(p.y) });
      }
      frame = requestAnimationFrame(tick);
    };
    frame = requestAnimationFrame(tick);
    return () => cancelAnimationFrame(frame);
  }, [stage, seconds]);

  useEffect(() => {
    if (stage !== 'validation') return;
    let cancelled = false;
    void (async () => {
      const points = VALIDATION_POINTS.slice(0, RESPONDENT_LIMITS.validationPoints);
      await stillDots(
        points,
        'validation_dot',
        setDot,
        (e) => logRef.current(e),
        () => cancelled,
      );
      if (cancelled) return;
      logRef.current({ type: 'validation_end' });
      setStage('done');
      doneRef.current();
    })();
    return () => {
      cancelled = true;
    };
  }, [stage]);

  if (stage === 'intro') {
    return (
      <Paper withBorder p={{ base: 'lg', sm: 'xl' }} radius="lg">
        <Stack gap="lg" align="center" ta="center" py="md" data-testid="calibration-intro">
          <Title order={2}>{t('calibration.title')}</Title>
          <Text size="lg" maw={560}>
            {t('calibration.text')}
          </Text>
          <Button
            size="lg"
            loading={busy}
            data-testid="calibration-start"
            onClick={async () => {
              setBusy(true);
              try {
                await onBegin();
                setStage('countdown');
              } finally {
                setBusy(false);
              }
            }}
          >
            {t('calibration.start')}
          </Button>
        </Stack>
      </Paper>
    );
  }

  return (
    <FullScreen testId={`calibration-${stage}`} dark>
      {stage === 'countdown' && (
        <Stack align="center" justify="center" h="100%" gap="md">
          <Text c="gray.4" size="xl">
            {t('calibration.follow')}
          </Text>
          <Text c="white" fw={700} style={{ fontSize: 120, lineHeight: 1 }} data-testid="countdown-number">
            {count}
          </Text>
        </Stack>
      )}
      {(stage === 'moving' || stage === 'validation') && dot && <Dot x={dot.x} y={dot.y} />}
    </FullScreen>
  );
}

async function stillDots(
  points: readonly (readonly [number, number])[],
  type: 'validation_dot' | 'checkpoint_dot',
  show: (p: { x: number; y: number }) => void,
  log: (event: EventInput) => void,
  cancelled: () => boolean,
): Promise<void> {
  for (const [fx, fy] of points) {
    if (cancelled()) return;
    const x = Math.round(fx * window.innerWidth);
    const y = Math.round(fy * window.innerHeight);
    show({ x, y });
    log({ type, x, y });
    await new Promise((resolve) => setTimeout(resolve, STILL_DOT_MS));
  }
}

/** A drift check after a resume (before the research starts again): three still dots (design section 6). */
export function Checkpoint({ log, onDone }: { log: (event: EventInput) => void; onDone: () => void }) {
  const { t } = useTranslation('respondent');
  const [dot, setDot] = useState<{ x: number; y: number } | null>(null);
  const [started, setStarted] = useState(false);
  const logRef = useRef(log);
  logRef.current = log;
  const doneRef = useRef(onDone);
  doneRef.current = onDone;

  useEffect(() => {
    let cancelled = false;
    const timer = window.setTimeout(() => {
      setStarted(true);
      void stillDots(
        CHECKPOINT_POINTS.slice(0, RESPONDENT_LIMITS.checkpointPoints),
        'checkpoint_dot',
        setDot,
        (e) => logRef.current(e),
        () => cancelled,
      ).then(() => {
        if (!cancelled) doneRef.current();
      });
    }, 1500);
    return () => {
      cancelled = true;
      window.clearTimeout(timer);
    };
  }, []);

  return (
    <FullScreen testId="checkpoint" dark>
      {!started && (
        <Stack align="center" justify="center" h="100%">
          <Text c="gray.3" size="xl" ta="center" px="md">
            {t('calibration.checkpoint')}
          </Text>
        </Stack>
      )}
      {dot && <Dot x={dot.x} y={dot.y} />}
    </FullScreen>
  );
}
