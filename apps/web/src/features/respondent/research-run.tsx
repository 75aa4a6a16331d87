import { DRIFT_CHECKPOINT_TIMING, type RespondentResearch } from '@emolens/contracts';
import { useCallback, useEffect, useRef, useState } from 'react';
import { ContentlessPlayer, PicturesPlayer, ShelfPlayer } from './content-players.tsx';
import { CheckpointDotScreen, showCheckpoint } from './drift-break.tsx';
import { checkpointDue, type DriftClock, type ScreenPoint } from './drift-checkpoints.ts';
import type { EventInput } from './event-log.ts';
import { SitePlayer } from './site-player.tsx';
import { VideoPlayer } from './video-player.tsx';

/**
 * One research: its start and end logged, its player by content type. When a drift checkpoint is due (decision 055),
 * the research opens with its dot: inside the research's window (the engine measures it there), before any content
 * is shown or played, so no frame of it is placed on the content.
 */
export function ResearchRun({
  index,
  research,
  log,
  blocked,
  onEnd,
  onLoadError,
  drift,
}: {
  index: number;
  research: RespondentResearch;
  log: (event: EventInput) => void;
  blocked: boolean;
  onEnd: () => void;
  onLoadError: () => void;
  drift: DriftClock;
}) {
  const ended = useRef(false);
  const logRef = useRef(log);
  logRef.current = log;
  const onEndRef = useRef(onEnd);
  onEndRef.current = onEnd;
  const [opening, setOpening] = useState(() => checkpointDue(drift, research.drift_checkpoints));
  const [openingDot, setOpeningDot] = useState<ScreenPoint | null>(null);
  const openingRef = useRef(opening);
  useEffect(() => {
    logRef.current({ type: 'research_start', campaign_id: research.campaign_id, index });
    if (!openingRef.current) return;
    openingRef.current = false;
    setOpeningDot(showCheckpoint(drift, (e) => logRef.current(e)));
    window.setTimeout(() => {
      // The dot's end: a video logs nothing until it plays, a contentless research nothing until it ends.
      logRef.current({ type: 'checkpoint_end' });
      setOpening(false);
    }, DRIFT_CHECKPOINT_TIMING.breakDotMs);
  }, [research.campaign_id, index, drift]);
  // Stable for the research's life: the players' effects do not run again on every render.
  const end = useCallback(() => {
    if (ended.current) return;
    ended.current = true;
    logRef.current({ type: 'research_end', campaign_id: research.campaign_id });
    onEndRef.current();
  }, [research.campaign_id]);
  if (opening) return openingDot ? <CheckpointDotScreen dot={openingDot} /> : null;
  const props = { research, log, blocked, onEnd: end, onLoadError, drift };
  switch (research.content_type) {
    case 'video':
      return research.video ? (
        <VideoPlayer
          url={research.video.url}
          log={log}
          blocked={blocked}
          onEnd={end}
          onLoadError={onLoadError}
          drift={drift}
          overlay={research.drift_overlay}
        />
      ) : (
        <ContentlessPlayer {...props} />
      );
    case 'pictures':
      return <PicturesPlayer {...props} />;
    case 'shelf':
      return <ShelfPlayer {...props} />;
    case 'site':
      return <SitePlayer {...props} />;
    default:
      return <ContentlessPlayer {...props} />;
  }
}
