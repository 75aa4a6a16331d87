import type { RespondentResearch } from '@emolens/contracts';
import { useCallback, useEffect, useRef } from 'react';
import { ContentlessPlayer, PicturesPlayer, ShelfPlayer } from './content-players.tsx';
import type { EventInput } from './event-log.ts';
import { SitePlayer } from './site-player.tsx';
import { VideoPlayer } from './video-player.tsx';

/** One research: its start and end logged, its player by content type. */
export function ResearchRun({
  index,
  research,
  log,
  blocked,
  onEnd,
  onLoadError,
}: {
  index: number;
  research: RespondentResearch;
  log: (event: EventInput) => void;
  blocked: boolean;
  onEnd: () => void;
  onLoadError: () => void;
}) {
  const ended = useRef(false);
  const logRef = useRef(log);
  logRef.current = log;
  const onEndRef = useRef(onEnd);
  onEndRef.current = onEnd;
  useEffect(() => {
    logRef.current({ type: 'research_start', campaign_id: research.campaign_id, index });
  }, [research.campaign_id, index]);
  // Stable for the research's life: the players' effects do not run again on every render.
  const end = useCallback(() => {
    if (ended.current) return;
    ended.current = true;
    logRef.current({ type: 'research_end', campaign_id: research.campaign_id });
    onEndRef.current();
  }, [research.campaign_id]);
  const props = { research, log, blocked, onEnd: end, onLoadError };
  switch (research.content_type) {
    case 'video':
      return research.video ? (
        <VideoPlayer url={research.video.url} log={log} blocked={blocked} onEnd={end} onLoadError={onLoadError} />
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
