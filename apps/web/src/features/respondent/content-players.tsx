import { RESPONDENT_LIMITS, type RespondentResearch } from '@emolens/contracts';
import { Button, Loader, Stack, Text, Title } from '@mantine/core';
import { IconArrowRight } from '@tabler/icons-react';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CheckpointDotScreen, useDriftBreak } from './drift-break.tsx';
import { countContent, type DriftClock } from './drift-checkpoints.ts';
import type { EventInput } from './event-log.ts';
import { FullScreen, TaskCardScreen } from './full-screen.tsx';

export interface PlayerProps {
  research: RespondentResearch;
  log: (event: EventInput) => void;
  /** A screen covers the content: timers wait. */
  blocked: boolean;
  onEnd: () => void;
  onLoadError: () => void;
  /** The page's drift-checkpoint clock: the content shown is counted on it, the breaks show its dots (decision 055). */
  drift: DriftClock;
}

/** Loads the images first (within the scripts' timeout), so shown times are times on screen. */
export function usePreload(urls: string[], onError: () => void): boolean {
  const [ready, setReady] = useState(urls.length === 0);
  const onErrorRef = useRef(onError);
  onErrorRef.current = onError;
  const key = urls.join('\n');
  useEffect(() => {
    if (!key) return;
    let cancelled = false;
    const list = key.split('\n');
    const timer = window.setTimeout(() => {
      if (!cancelled) onErrorRef.current();
    }, RESPONDENT_LIMITS.scriptTimeoutMs);
    Promise.all(
      list.map(
        (url) =>
          new Promise<void>((resolve, reject) => {
            const img = new Image();
            img.onload = () => resolve();
            img.onerror = () => reject(new Error(`image ${url}`));
            img.src = url;
          }),
      ),
    ).then(
      () => {
        window.clearTimeout(timer);
        if (!cancelled) setReady(true);
      },
      () => {
        window.clearTimeout(timer);
        if (!cancelled) onErrorRef.current();
      },
    );
    return () => {
      cancelled = true;
      window.clearTimeout(timer);
    };
  }, [key]);
  return ready;
}

/**
 * Counts `seconds` of visible time (a blocked screen stops the count), then calls `onDone`. A new `run`
 * (the next picture of the same length) counts again from the start.
 */
export function useShownTimer(
  seconds: number | null,
  blocked: boolean,
  onDone: () => void,
  run: number | string = 0,
): number {
  const [left, setLeft] = useState(seconds ?? 0);
  const doneRef = useRef(onDone);
  doneRef.current = onDone;
  const remaining = useRef((seconds ?? 0) * 1000);
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new run counts again, even of the same length
  useEffect(() => {
    remaining.current = (seconds ?? 0) * 1000;
    setLeft(seconds ?? 0);
  }, [seconds, run]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new run counts again, even of the same length
  useEffect(() => {
    if (seconds === null || blocked) return;
    let last = performance.now();
    const timer = window.setInterval(() => {
      const now = performance.now();
      remaining.current -= now - last;
      last = now;
      setLeft(Math.max(0, Math.ceil(remaining.current / 1000)));
      if (remaining.current <= 0) {
        window.clearInterval(timer);
        doneRef.current();
      }
    }, 100);
    return () => window.clearInterval(timer);
  }, [seconds, blocked, run]);
  return left;
}

function FullImage({ src, testId, onClick }: { src: string; testId: string; onClick?: (e: React.MouseEvent) => void }) {
  return (
    // biome-ignore lint/a11y/useKeyWithClickEvents: clicks are logged where the respondent looks; keys are not content.
    // biome-ignore lint/a11y/noStaticElementInteractions: the picture is the content; a click on it is the respondent's answer.
    <img
      src={src}
      alt=""
      data-testid={testId}
      draggable={false}
      onClick={onClick}
      style={{ width: '100%', height: '100%', objectFit: 'contain', display: 'block', userSelect: 'none' }}
    />
  );
}

/** Pictures, each for its duration (picture_shown). */
export function PicturesPlayer({ research, log, blocked, onEnd, onLoadError, drift }: PlayerProps) {
  const items = research.picture_gallery.items.filter((item) => research.images[item.image]);
  const ready = usePreload(
    items.map((item) => research.images[item.image] ?? ''),
    onLoadError,
  );
  const [index, setIndex] = useState(0);
  const item = items[index];
  const logRef = useRef(log);
  logRef.current = log;
  useEffect(() => {
    if (!ready) return;
    if (!item) {
      onEnd();
      return;
    }
    logRef.current({ type: 'picture_shown', index, image: item.image });
  }, [ready, item, index, onEnd]);
  const checkpoint = useDriftBreak(drift, research.drift_checkpoints, log);
  // Between two pictures a due checkpoint shows its dot; the next picture is shown (and logged) after it.
  const shown = () => {
    countContent(drift, (item?.duration_seconds ?? 0) * 1000);
    if (index + 1 < items.length) checkpoint.pass(() => setIndex((i) => i + 1));
    else setIndex((i) => i + 1);
  };
  useShownTimer(ready && item && !checkpoint.dot ? item.duration_seconds : null, blocked, shown, index);
  if (checkpoint.dot) return <CheckpointDotScreen dot={checkpoint.dot} />;
  return (
    <FullScreen testId="pictures-research" dark>
      {ready && item ? (
        <FullImage key={index} src={research.images[item.image] ?? ''} testId="research-picture" />
      ) : (
        <Loader color="gray.4" style={{ position: 'absolute', left: '50%', top: '50%' }} />
      )}
    </FullScreen>
  );
}

/** Shelf images with their task, for their duration or until the respondent goes on (shelf_shown). */
export function ShelfPlayer({ research, log, blocked, onEnd, onLoadError, drift }: PlayerProps) {
  const { t } = useTranslation('respondent');
  const displays = research.shelf_content_scenario.filter((d) => research.images[d.image]);
  const ready = usePreload(
    displays.map((d) => research.images[d.image] ?? ''),
    onLoadError,
  );
  const [index, setIndex] = useState(0);
  const display = displays[index];
  const [showing, setShowing] = useState(false);
  const logRef = useRef(log);
  logRef.current = log;

  useEffect(() => {
    if (ready && !display) onEnd();
  }, [ready, display, onEnd]);
  useEffect(() => {
    // A shelf without a task shows at once.
    if (display && !display.task) setShowing(true);
  }, [display]);
  const shownAt = useRef(0);
  useEffect(() => {
    if (!showing || !display) return;
    shownAt.current = performance.now();
    logRef.current({ type: 'shelf_shown', index, image: display.image });
  }, [showing, display, index]);
  const checkpoint = useDriftBreak(drift, research.drift_checkpoints, log);
  // Between two shelves a due checkpoint shows its dot, before the next shelf's task (or the shelf itself).
  const next = () => {
    if (checkpoint.dot) return;
    countContent(drift, performance.now() - shownAt.current);
    const go = () => {
      setShowing(false);
      setIndex((i) => i + 1);
    };
    if (index + 1 < displays.length) checkpoint.pass(go);
    else go();
  };
  useShownTimer(
    showing && display?.auto_display && !checkpoint.dot ? display.duration_seconds : null,
    blocked,
    next,
    index,
  );

  if (!ready || !display) {
    return (
      <FullScreen testId="shelf-research">
        <Loader style={{ position: 'absolute', left: '50%', top: '50%' }} />
      </FullScreen>
    );
  }
  if (checkpoint.dot) return <CheckpointDotScreen dot={checkpoint.dot} />;
  if (!showing) {
    return (
      <TaskCardScreen testId="shelf-task">
        <Title order={2}>{t('shelf.taskTitle')}</Title>
        <Text size="xl" style={{ whiteSpace: 'pre-wrap' }} data-testid="shelf-task-text">
          {display.task}
        </Text>
        <Button size="lg" onClick={() => setShowing(true)} rightSection={<IconArrowRight size={18} />}>
          {t('shelf.show')}
        </Button>
      </TaskCardScreen>
    );
  }
  return (
    <FullScreen testId="shelf-research" dark>
      <FullImage
        key={index}
        src={research.images[display.image] ?? ''}
        testId="research-shelf"
        onClick={(e) => log({ type: 'click', x: Math.round(e.clientX), y: Math.round(e.clientY), target: 'shelf' })}
      />
      {!display.auto_display && (
        <Button
          size="lg"
          pos="absolute"
          bottom={24}
          right={24}
          onClick={next}
          rightSection={<IconArrowRight size={18} />}
          data-testid="shelf-next"
        >
          {t('shelf.next')}
        </Button>
      )}
    </FullScreen>
  );
}

/** Camera only, for the research's duration: a calm screen with the time left. */
export function ContentlessPlayer({ research, blocked, onEnd, drift }: PlayerProps) {
  const { t } = useTranslation('respondent');
  const left = useShownTimer(research.duration_seconds ?? 0, blocked, () => {
    countContent(drift, (research.duration_seconds ?? 0) * 1000);
    onEnd();
  });
  return (
    <FullScreen testId="contentless-research" dark>
      <Stack align="center" justify="center" h="100%" p="md" gap="md">
        <Text c="gray.3" size="xl" ta="center" maw={560}>
          {t('contentless.text')}
        </Text>
        <Text c="white" fw={700} style={{ fontSize: 64 }}>
          {t('contentless.left', { seconds: left })}
        </Text>
      </Stack>
    </FullScreen>
  );
}
