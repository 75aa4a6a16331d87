import { DRIFT_CHECKPOINT_TIMING } from '@emolens/contracts';
import { useCallback, useEffect, useRef, useState } from 'react';
import { Dot } from './calibration.tsx';
import { checkpointDue, type DriftClock, type ScreenPoint, takeCheckpoint } from './drift-checkpoints.ts';
import type { EventInput } from './event-log.ts';
import { FullScreen } from './full-screen.tsx';

/** Shows one checkpoint dot now: its place logged as `checkpoint_dot` (viewport CSS px, as the validation dots). */
export function showCheckpoint(drift: DriftClock, log: (event: EventInput) => void): ScreenPoint {
  const place = takeCheckpoint(drift, window.innerWidth, window.innerHeight);
  log({ type: 'checkpoint_dot', x: place.x, y: place.y });
  return place;
}

/**
 * A natural break of the content (decision 055): `pass(next)` goes on at once, or, when a checkpoint is due, shows its
 * dot for `breakDotMs` first (the next item's shown event is logged after it, by `next`).
 */
export function useDriftBreak(
  drift: DriftClock,
  enabled: boolean,
  log: (event: EventInput) => void,
): { dot: ScreenPoint | null; pass: (next: () => void) => void } {
  const [dot, setDot] = useState<ScreenPoint | null>(null);
  const timer = useRef(0);
  const logRef = useRef(log);
  logRef.current = log;
  useEffect(() => () => window.clearTimeout(timer.current), []);
  const pass = useCallback(
    (next: () => void) => {
      if (!checkpointDue(drift, enabled)) {
        next();
        return;
      }
      setDot(showCheckpoint(drift, (e) => logRef.current(e)));
      window.clearTimeout(timer.current);
      timer.current = window.setTimeout(() => {
        setDot(null);
        next();
      }, DRIFT_CHECKPOINT_TIMING.breakDotMs);
    },
    [drift, enabled],
  );
  return { dot, pass };
}

/** The break's dot on the content's dark screen. */
export function CheckpointDotScreen({ dot }: { dot: ScreenPoint }) {
  return (
    <FullScreen testId="drift-checkpoint" dark>
      <Dot x={dot.x} y={dot.y} testId="checkpoint-dot" />
    </FullScreen>
  );
}
