import type { GuidanceProblem, GuidanceState } from '@emolens/contracts';
import { Box, Group, Text } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { type RefObject, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { onDeviceResult } from './device-analysis.ts';
import type { EventInput } from './event-log.ts';
import { loadChecker } from './face-check.tsx';
import { CheckCost, GUIDANCE_INTERVAL_MS, GuidanceNotice, guidanceProblem, nextCheckDelay } from './live-guidance.ts';

/** The problems the face check before the calibration names already: the notice says it in the same words. */
const FACE_CHECK_WORDS: Partial<Record<GuidanceProblem, string>> = {
  too_dark: 'respondent.faceCheck.status.too_dark',
  no_face: 'respondent.faceCheck.status.no_face',
  head_turned: 'respondent.faceCheck.status.head_turned',
};

/** Runs `run` when the page is idle (between frames), at the latest after `timeout` ms. */
function whenIdle(run: () => void, timeout: number): () => void {
  if ('requestIdleCallback' in window) {
    const id = window.requestIdleCallback(run, { timeout });
    return () => window.cancelIdleCallback(id);
  }
  const id = setTimeout(run, 0);
  return () => clearTimeout(id);
}

export interface LiveGuidanceProps {
  /** The camera's video the page plays (the recording journey's monitor). */
  video: RefObject<HTMLVideoElement | null>;
  /** Guidance runs while this holds (a guided phase, with the face check on). */
  active: boolean;
  /** The eyes follow dots now: the notice keeps to the strip above the dots' margin. */
  compact: boolean;
  log: (event: EventInput) => void;
  /**
   * Privacy mode: the recording analysis's engine runs in the page already (its worker): its full frames' results
   * guide, at the same pace, and the face checker is not started (one engine, not two).
   */
  device?: boolean;
}

/**
 * Live guidance (decision 045): the face check about three times a second while the respondent calibrates and
 * watches, a small notice at the top of the screen while a problem holds, and each change of the notice logged.
 */
export function LiveGuidance({ video, active, compact, log, device = false }: LiveGuidanceProps) {
  const { t } = useTranslation();
  const [state, setState] = useState<GuidanceState>('off');
  const [cost, setCost] = useState<ReturnType<CheckCost['summary']> | null>(null);
  const logRef = useRef(log);
  logRef.current = log;

  useEffect(() => {
    if (!active || !device) return;
    const notice = new GuidanceNotice();
    let last = Number.NEGATIVE_INFINITY;
    const show = (next: GuidanceState | null) => {
      if (next === null) return;
      logRef.current({ type: 'guidance', state: next });
      setState(next);
    };
    const stop = onDeviceResult((result) => {
      const now = performance.now();
      if (document.hidden) {
        show(notice.stop());
        return;
      }
      // The face checker's pace (about 3 Hz), so a notice holds as long as it does there.
      if (now - last < GUIDANCE_INTERVAL_MS) return;
      last = now;
      show(notice.next(guidanceProblem(result)));
    });
    return () => {
      stop();
      show(notice.stop());
      setState('off');
    };
  }, [active, device]);

  useEffect(() => {
    if (!active || device) return;
    let stopped = false;
    let cancel: () => void = () => {};
    let warned = false;
    const notice = new GuidanceNotice();
    const meter = new CheckCost();
    const show = (next: GuidanceState | null) => {
      if (next === null) return;
      logRef.current({ type: 'guidance', state: next });
      setState(next);
    };

    const step = async () => {
      const checker = await loadChecker();
      if (stopped) return;
      const el = video.current;
      let delay = GUIDANCE_INTERVAL_MS;
      if (document.hidden) {
        // Nobody sees the notice: the guidance is off until the page shows again.
        show(notice.stop());
      } else if (el && el.readyState >= HTMLMediaElement.HAVE_CURRENT_DATA && el.videoWidth && !el.paused) {
        try {
          const result = await checker.check(el);
          if (stopped) return;
          meter.add(result.duration, performance.now());
          delay = nextCheckDelay(result.duration);
          setCost(meter.summary(performance.now()));
          show(notice.next(guidanceProblem(result)));
        } catch (error) {
          if (!warned) console.warn('live guidance: a check failed', error);
          warned = true;
        }
      }
      schedule(delay);
    };
    const schedule = (delay = GUIDANCE_INTERVAL_MS) => {
      if (stopped) return;
      const timer = window.setTimeout(() => {
        cancel = whenIdle(() => void step().catch(() => schedule()), GUIDANCE_INTERVAL_MS);
      }, delay);
      cancel = () => window.clearTimeout(timer);
    };
    // The engine failing to load leaves the respondent without guidance, never stops the research.
    loadChecker().then(
      () => void step().catch(() => schedule()),
      () => undefined,
    );

    return () => {
      stopped = true;
      cancel();
      show(notice.stop());
      setState('off');
    };
  }, [active, video, device]);

  const problem = state === 'off' || state === 'ok' ? null : state;
  const words =
    problem &&
    (FACE_CHECK_WORDS[problem] ? t(FACE_CHECK_WORDS[problem]) : t(`guidance.${problem}`, { ns: 'respondent' }));
  return (
    <Box
      data-testid="live-guidance"
      data-state={state}
      data-source={device ? 'device' : 'checker'}
      data-compact={compact}
      data-checks={cost?.checks ?? 0}
      data-check-ms={cost ? cost.meanMs.toFixed(1) : ''}
      data-check-elapsed={cost ? Math.round(cost.elapsedMs) : ''}
      data-check-rate={cost ? cost.rate.toFixed(2) : ''}
      data-check-share={cost ? cost.share.toFixed(3) : ''}
      role="status"
      aria-live="polite"
      style={{
        position: 'fixed',
        top: compact ? 2 : 8,
        left: '50%',
        transform: 'translateX(-50%)',
        // Above the content and the calibration's screen (z-index 300), below the page's dialogs.
        zIndex: 310,
        width: 'max-content',
        maxWidth: 'min(640px, calc(100vw - 16px))',
        pointerEvents: 'none',
      }}
    >
      {words && (
        <Group
          gap={6}
          wrap="nowrap"
          data-testid="live-guidance-notice"
          data-problem={problem}
          px={compact ? 8 : 12}
          py={compact ? 0 : 6}
          style={{
            background: 'rgba(33, 37, 41, 0.82)',
            color: 'var(--mantine-color-orange-2)',
            borderRadius: compact ? 6 : 'var(--mantine-radius-xl)',
            height: compact ? 18 : undefined,
          }}
        >
          <IconAlertTriangle size={compact ? 12 : 16} aria-hidden style={{ flex: 'none' }} />
          <Text
            size={compact ? '11px' : 'sm'}
            lh={compact ? '18px' : 1.35}
            c="inherit"
            style={compact ? { whiteSpace: 'nowrap', overflow: 'hidden', textOverflow: 'ellipsis' } : undefined}
          >
            {words}
          </Text>
        </Group>
      )}
    </Box>
  );
}
