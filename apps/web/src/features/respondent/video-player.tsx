import { DRIFT_CHECKPOINT_TIMING, RESPONDENT_LIMITS } from '@emolens/contracts';
import { Button, Group, Loader, Paper, Stack, Text, Title } from '@mantine/core';
import { IconPlayerPlay, IconPlayerSkipForward } from '@tabler/icons-react';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Dot } from './calibration.tsx';
import { showCheckpoint } from './drift-break.tsx';
import { checkpointDue, countContent, type DriftClock, playedMs, type ScreenPoint } from './drift-checkpoints.ts';
import type { EventInput } from './event-log.ts';
import { FullScreen } from './full-screen.tsx';

const TIME_LOG_MS = 250;
const OVERLAY_DOT_MS = DRIFT_CHECKPOINT_TIMING.overlayDotMs;

export interface VideoPlayerProps {
  url: string;
  log: (event: EventInput) => void;
  /** Something covers the content (camera lost, wrong orientation, leave dialog): the video waits. */
  blocked: boolean;
  onEnd: () => void;
  onLoadError: () => void;
  /** The page's drift-checkpoint clock: the playback is counted on it (decision 055). */
  drift: DriftClock;
  /** The research's overlay: a due checkpoint shows its dot over the playing video. */
  overlay: boolean;
}

/**
 * The research video over the whole screen, without controls. Playback is logged on the session clock
 * (play, pause, the time every ~250 ms, waiting, seeks, the end). A click, the space bar or a hidden
 * tab pauses it behind a pause screen, from which the respondent resumes or skips the rest.
 */
export function VideoPlayer({ url, log, blocked, onEnd, onLoadError, drift, overlay }: VideoPlayerProps) {
  const { t } = useTranslation('respondent');
  const ref = useRef<HTMLVideoElement>(null);
  const logRef = useRef(log);
  logRef.current = log;
  const [paused, setPaused] = useState(false);
  const [needsClick, setNeedsClick] = useState(false);
  const [waiting, setWaiting] = useState(true);
  const ended = useRef(false);
  const pausedByUs = useRef(false);
  const [overlayDot, setOverlayDot] = useState<ScreenPoint | null>(null);
  const overlayRef = useRef(overlay);
  overlayRef.current = overlay;

  const play = useCallback(async () => {
    const video = ref.current;
    if (!video || ended.current) return;
    try {
      await video.play();
      setNeedsClick(false);
    } catch (error) {
      // Autoplay with sound refused: the respondent starts it with a click.
      if ((error as DOMException)?.name === 'NotAllowedError') setNeedsClick(true);
    }
  }, []);

  const showPause = useCallback(() => {
    const video = ref.current;
    if (!video || ended.current || video.paused) return;
    pausedByUs.current = true;
    video.pause();
    setPaused(true);
    logRef.current({ type: 'pause_screen', action: 'shown' });
  }, []);

  // Logging of the playback.
  useEffect(() => {
    const video = ref.current;
    if (!video) return;
    let timer = 0;
    let lastTime = 0;
    let counted = 0;
    // An overlay checkpoint's dot is on until then: no time report ends it early (the engine reads a dot until
    // the next event); the media clock runs on with the session clock meanwhile.
    let dotUntil = 0;
    let dotTimer = 0;
    const time = () => Math.min(24 * 3600, Math.max(0, video.currentTime));
    const onPlay = () => {
      counted = time();
      logRef.current({ type: 'video_play', time: counted });
      window.clearInterval(timer);
      timer = window.setInterval(() => {
        if (video.paused) return;
        const now = time();
        countContent(drift, playedMs(counted, now, 4 * TIME_LOG_MS));
        counted = now;
        if (performance.now() < dotUntil) return;
        logRef.current({ type: 'video_time', time: now });
        if (overlayRef.current && checkpointDue(drift, true)) {
          setOverlayDot(showCheckpoint(drift, (e) => logRef.current(e)));
          dotUntil = performance.now() + OVERLAY_DOT_MS;
          dotTimer = window.setTimeout(() => {
            setOverlayDot(null);
            if (!video.paused && !video.ended) logRef.current({ type: 'video_time', time: time() });
          }, OVERLAY_DOT_MS);
        }
      }, TIME_LOG_MS);
    };
    const countPlayed = () => {
      countContent(drift, playedMs(counted, time(), 4 * TIME_LOG_MS));
      counted = time();
    };
    const onPause = () => {
      window.clearInterval(timer);
      countPlayed();
      if (!video.ended) logRef.current({ type: 'video_pause', time: time() });
    };
    const onWaiting = () => {
      setWaiting(true);
      logRef.current({ type: 'video_waiting', time: time() });
    };
    const onPlaying = () => setWaiting(false);
    const onTimeUpdate = () => {
      lastTime = time();
    };
    const onSeeking = () => {
      counted = time();
      logRef.current({ type: 'video_seek', from: lastTime, to: counted });
    };
    const onEnded = () => {
      window.clearInterval(timer);
      countPlayed();
      ended.current = true;
      logRef.current({ type: 'video_ended', time: time() });
      onEndRef.current();
    };
    const onError = () => onLoadErrorRef.current();
    const listeners = {
      play: onPlay,
      pause: onPause,
      waiting: onWaiting,
      playing: onPlaying,
      timeupdate: onTimeUpdate,
      seeking: onSeeking,
      ended: onEnded,
      error: onError,
    };
    for (const [type, listener] of Object.entries(listeners)) video.addEventListener(type, listener);
    return () => {
      window.clearInterval(timer);
      window.clearTimeout(dotTimer);
      for (const [type, listener] of Object.entries(listeners)) video.removeEventListener(type, listener);
    };
  }, [drift]);
  const onEndRef = useRef(onEnd);
  onEndRef.current = onEnd;
  const onLoadErrorRef = useRef(onLoadError);
  onLoadErrorRef.current = onLoadError;

  // The content file must arrive within the scripts' timeout (spec section 9).
  useEffect(() => {
    const video = ref.current;
    if (!video) return;
    const timer = window.setTimeout(() => {
      if (video.readyState < HTMLMediaElement.HAVE_FUTURE_DATA) onLoadErrorRef.current();
    }, RESPONDENT_LIMITS.scriptTimeoutMs);
    const clear = () => window.clearTimeout(timer);
    video.addEventListener('canplay', clear, { once: true });
    return clear;
  }, []);

  // Blocked by a screen over it: waits; unblocked: goes on unless the pause screen is up.
  useEffect(() => {
    const video = ref.current;
    if (!video) return;
    if (blocked) {
      if (!video.paused) video.pause();
    } else if (!paused) void play();
  }, [blocked, paused, play]);

  // A hidden tab pauses behind the pause screen; so do a click and the space bar.
  useEffect(() => {
    const onVisibility = () => {
      if (document.visibilityState === 'hidden') showPause();
    };
    const onKey = (event: KeyboardEvent) => {
      if (event.code === 'Space') {
        event.preventDefault();
        showPause();
      }
    };
    document.addEventListener('visibilitychange', onVisibility);
    window.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('visibilitychange', onVisibility);
      window.removeEventListener('keydown', onKey);
    };
  }, [showPause]);

  return (
    <FullScreen testId="video-research" dark>
      {/* biome-ignore lint/a11y/useMediaCaption: the research's content is shown exactly as the customer uploaded it. */}
      <video
        ref={ref}
        src={url}
        data-testid="research-video"
        playsInline
        preload="auto"
        disablePictureInPicture
        controls={false}
        onClick={showPause}
        onContextMenu={(e) => e.preventDefault()}
        style={{ width: '100%', height: '100%', objectFit: 'contain', background: 'black', display: 'block' }}
      />
      {overlayDot && !paused && <Dot x={overlayDot.x} y={overlayDot.y} testId="checkpoint-dot" />}
      {waiting && !paused && !needsClick && (
        <Loader color="gray.4" style={{ position: 'absolute', left: '50%', top: '50%', translate: '-50% -50%' }} />
      )}
      {needsClick && !paused && (
        <Stack pos="absolute" inset={0} align="center" justify="center">
          <Button size="xl" leftSection={<IconPlayerPlay />} onClick={() => void play()} data-testid="video-start">
            {t('video.start')}
          </Button>
        </Stack>
      )}
      {paused && (
        <Stack pos="absolute" inset={0} align="center" justify="center" bg="rgba(0,0,0,0.75)" p="md">
          <Paper p="xl" radius="lg" maw={460} w="100%" data-testid="pause-screen">
            <Stack gap="md">
              <Title order={3}>{t('video.pausedTitle')}</Title>
              <Text>{t('video.pausedText')}</Text>
              <Group justify="flex-end" wrap="wrap">
                <Button
                  variant="default"
                  leftSection={<IconPlayerSkipForward size={18} />}
                  data-testid="pause-skip"
                  onClick={() => {
                    logRef.current({ type: 'pause_screen', action: 'skipped' });
                    ended.current = true;
                    setPaused(false);
                    onEndRef.current();
                  }}
                >
                  {t('video.skip')}
                </Button>
                <Button
                  leftSection={<IconPlayerPlay size={18} />}
                  data-testid="pause-resume"
                  onClick={() => {
                    logRef.current({ type: 'pause_screen', action: 'resumed' });
                    pausedByUs.current = false;
                    setPaused(false);
                  }}
                >
                  {t('video.resume')}
                </Button>
              </Group>
            </Stack>
          </Paper>
        </Stack>
      )}
    </FullScreen>
  );
}
