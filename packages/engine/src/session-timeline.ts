/**
 * Where a session's frames fall: the research and calibration windows on the session clock, the content item on
 * screen, the content's box in the viewport, and each frame's bucket on the content's own timeline (video time,
 * picture and seconds since shown, site task and step). Pure functions of the event log, so they are tested
 * without video.
 */
import { EngineError } from './errors.ts';
import { type CheckpointDot, checkpointDots } from './gaze-drift.ts';
import type { ContentItemSize, ResearchTarget, SeriesTimeline, SessionEvent } from './session-types.ts';
import type { EventLog, ScreenPoint, StimulusEvent } from './types.ts';

/** ms on the session clock, start included, end excluded. */
export interface MsWindow {
  start: number;
  end: number;
}

export interface SessionScreen {
  width: number;
  height: number;
  devicePixelRatio: number;
}

export interface SessionWindows {
  research: MsWindow;
  /** calibration_start … validation_end (or calibration_end); null when the log has no calibration before it. */
  calibration: MsWindow | null;
  screen: SessionScreen | null;
}

/** Events with a finite `t`, in time order (stable: same-time events keep the log's order). */
export function sortedEvents(events: readonly SessionEvent[]): SessionEvent[] {
  return events
    .filter((e) => e !== null && typeof e === 'object' && typeof e.type === 'string' && Number.isFinite(e.t))
    .map((e, i) => ({ e, i }))
    .sort((a, b) => a.e.t - b.e.t || a.i - b.i)
    .map(({ e }) => e);
}

const num = (value: unknown): number | null => (typeof value === 'number' && Number.isFinite(value) ? value : null);

/**
 * The windows of a session. `recordingEndMs` is the end of the last source on the session clock (null when
 * unknown). Research: the last `research_start` of the campaign and the first `research_end` of the campaign
 * after it (none: the recording's end, with a warning). No research: the whole recording. Calibration: the
 * latest calibration_start before the research start, to the first validation_end after its calibration_end
 * (or that calibration_end; or the research start when neither came).
 */
export function sessionWindows(
  events: readonly SessionEvent[],
  research: ResearchTarget | null,
  recordingEndMs: number | null,
  warnings: string[],
): SessionWindows {
  const sorted = sortedEvents(events);
  const end = recordingEndMs ?? Number.POSITIVE_INFINITY;
  let window: MsWindow;
  if (research) {
    const starts = sorted.filter((e) => e.type === 'research_start' && e.campaign_id === research.researchId);
    const start = starts.at(-1);
    if (!start) {
      throw new EngineError(
        'event_log_inconsistent',
        `The event log has no research_start for research ${research.researchId}`,
      );
    }
    const stop = sorted.find(
      (e) => e.type === 'research_end' && e.campaign_id === research.researchId && e.t >= start.t,
    );
    if (!stop) {
      warnings.push(
        `The event log has no research_end for research ${research.researchId}: analysed to the recording's end.`,
      );
    }
    window = { start: start.t, end: stop ? stop.t : end };
  } else {
    window = { start: 0, end };
  }

  const before = research ? sorted.filter((e) => e.t <= window.start) : sorted;
  const calStart = before.filter((e) => e.type === 'calibration_start').at(-1);
  let calibration: MsWindow | null = null;
  if (calStart) {
    const after = before.filter((e) => e.t >= calStart.t);
    const calEnd = after.find((e) => e.type === 'calibration_end');
    const valEnd = calEnd ? after.find((e) => e.type === 'validation_end' && e.t >= calEnd.t) : undefined;
    const stop = valEnd ?? calEnd;
    calibration = { start: calStart.t, end: stop ? stop.t : research ? window.start : end };
  }

  // The screen the research was shown on: the latest report before the research (or before the end).
  const screenEvent = sorted
    .filter((e) => e.type === 'screen' && (research ? e.t <= window.start : e.t <= end))
    .filter((e) => (num(e.width) ?? 0) > 0 && (num(e.height) ?? 0) > 0)
    .at(-1);
  const screen = screenEvent
    ? {
        width: screenEvent.width as number,
        height: screenEvent.height as number,
        devicePixelRatio: num(screenEvent.device_pixel_ratio) ?? 1,
      }
    : null;
  if (!screen && research) {
    throw new EngineError('event_log_inconsistent', 'The event log has no screen event before the research');
  }
  return { research: window, calibration, screen };
}

/**
 * The calibration part of the log in the engine's `EventLog` form for `fitGaze`: calibration_dot as is,
 * validation_dot as a calibration_dot marked `validation`, calibration_end and validation_end as the end of the
 * dot before them. Only events inside the calibration window.
 */
export function calibrationLog(
  events: readonly SessionEvent[],
  window: MsWindow,
  screen: { width: number; height: number },
): EventLog {
  const out: StimulusEvent[] = [];
  for (const e of sortedEvents(events)) {
    if (e.t < window.start || e.t > window.end) continue;
    const x = num(e.x);
    const y = num(e.y);
    if (e.type === 'calibration_start') out.push({ type: 'calibration_start', t: e.t });
    else if (e.type === 'calibration_dot' && x !== null && y !== null)
      out.push({ type: 'calibration_dot', t: e.t, x, y });
    else if (e.type === 'validation_dot' && x !== null && y !== null) {
      out.push({ type: 'calibration_dot', t: e.t, x, y, validation: true });
    } else if (e.type === 'calibration_end' || e.type === 'validation_end')
      out.push({ type: 'calibration_end', t: e.t });
  }
  return { screen: { width: screen.width, height: screen.height }, events: out };
}

export interface Bucket {
  item: number;
  step: number;
  second: number;
}

export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** How long before its item's "shown" event a content_rect may come and still describe that item (ms). */
const RECT_LEAD_MS = 250;

/**
 * Places session times (ms) on the content's timeline and says which content item is on screen, and where.
 * Build once per session; `bucket`, `item` and `rect` are then cheap (binary search over the log).
 */
export class ContentTimeline {
  readonly timeline: SeriesTimeline;
  /** Set when gaze had to be mapped with the letterbox assumption (no content_rect for the item). */
  usedLetterbox = false;
  private readonly shown: { t: number; item: number }[] = [];
  private readonly steps: { t: number; task: number; step: number }[] = [];
  private readonly rects: { t: number; rect: Rect }[] = [];
  private readonly spans: { from: number; to: number; media: number; cap: number }[] = [];
  /** Drift checkpoint dots in the window (decision 053): the eyes are on the dot, not on the content. */
  private readonly dots: CheckpointDot[];

  constructor(
    events: readonly SessionEvent[],
    private readonly research: ResearchTarget | null,
    private readonly window: MsWindow,
    private readonly screen: { width: number; height: number } | null,
  ) {
    this.timeline = research ? research.kind : 'recording';
    const inWindow = sortedEvents(events).filter((e) => e.t >= window.start - RECT_LEAD_MS && e.t <= window.end);
    const kind = research?.kind;
    this.dots = checkpointDots(inWindow, window.start, window.end);
    for (const e of inWindow) {
      if (e.type === 'content_rect') {
        const [x, y, width, height] = [num(e.x), num(e.y), num(e.width), num(e.height)];
        if (x !== null && y !== null && width !== null && height !== null && width > 0 && height > 0) {
          this.rects.push({ t: e.t, rect: { x, y, width, height } });
        }
      }
      if (e.t < window.start) continue;
      const index = num(e.index);
      // A checkpoint dot between two items (decision 055) hides the one before it: nothing is on screen until the
      // next is shown (a dot over a playing video, the overlay, leaves the video's clock as it is).
      if (e.type === 'checkpoint_dot' && (kind === 'pictures' || kind === 'shelf' || kind === 'site')) {
        this.shown.push({ t: e.t, item: -1 });
      } else if (
        (kind === 'pictures' && e.type === 'picture_shown') ||
        (kind === 'shelf' && e.type === 'shelf_shown')
      ) {
        if (index !== null) this.shown.push({ t: e.t, item: index });
      } else if (kind === 'site' && e.type === 'task_shown' && num(e.task) !== null) {
        this.shown.push({ t: e.t, item: e.task as number });
      } else if (kind === 'site' && e.type === 'task_step' && num(e.task) !== null && num(e.step) !== null) {
        this.steps.push({ t: e.t, task: e.task as number, step: e.step as number });
      }
    }
    if (kind === 'video') this.buildMediaClock(inWindow.filter((e) => e.t >= window.start));
  }

  /**
   * The video's media clock as spans of playback: from play (or a resumed time report) to the next pause,
   * waiting, seek, end or time report. Within a span media time runs with the session clock, capped at the
   * media time the next event reports (a stall before it does not push frames past it). Paused, waiting and
   * ended stretches have no span, so their frames are not placed.
   */
  private buildMediaClock(events: SessionEvent[]): void {
    const duration = this.research?.durationSeconds ?? null;
    let mode: 'idle' | 'playing' | 'paused' | 'waiting' | 'ended' = 'idle';
    let anchor = { t: 0, media: 0 };
    let waitingAt = 0;
    const close = (t: number, cap: number) => {
      if (mode === 'playing' && t > anchor.t) this.spans.push({ from: anchor.t, to: t, media: anchor.media, cap });
    };
    for (const e of events) {
      const time = num(e.time);
      switch (e.type) {
        case 'video_play':
          if (time === null) break;
          close(e.t, time);
          mode = 'playing';
          anchor = { t: e.t, media: time };
          break;
        case 'video_time':
          if (time === null) break;
          close(e.t, time);
          // Time reports come only while the player is not paused; during a stall the time stands still.
          if (mode === 'playing' || mode === 'idle' || (mode === 'waiting' && time > waitingAt + 0.05)) {
            mode = 'playing';
            anchor = { t: e.t, media: time };
          }
          break;
        case 'video_pause':
          close(e.t, time ?? Number.POSITIVE_INFINITY);
          mode = 'paused';
          break;
        case 'video_waiting':
          close(e.t, time ?? Number.POSITIVE_INFINITY);
          if (mode !== 'ended') mode = 'waiting';
          waitingAt = time ?? anchor.media;
          break;
        case 'video_seek': {
          const from = num(e.from);
          const to = num(e.to);
          if (to === null) break;
          close(e.t, from ?? Number.POSITIVE_INFINITY);
          anchor = { t: e.t, media: to };
          waitingAt = to;
          if (mode === 'ended') mode = 'paused';
          break;
        }
        case 'video_ended':
          close(e.t, time ?? Number.POSITIVE_INFINITY);
          mode = 'ended';
          break;
      }
    }
    close(this.window.end, duration ?? Number.POSITIVE_INFINITY);
  }

  /** Media time (seconds) of the video at session time `ms`, or null when it was not playing. */
  mediaTime(ms: number): number | null {
    const span = lastAtOrBefore(this.spans, ms, (s) => s.from);
    if (!span || ms >= span.to) return null;
    const duration = this.research?.durationSeconds ?? Number.POSITIVE_INFINITY;
    return Math.min(span.media + (ms - span.from) / 1000, span.cap, duration);
  }

  private shownAt(ms: number): { t: number; item: number } | undefined {
    return lastAtOrBefore(this.shown, ms, (s) => s.t);
  }

  /** The content's bucket of a frame at session time `ms` inside the research window; null when not placed. */
  bucket(ms: number): Bucket | null {
    if (ms < this.window.start || ms >= this.window.end) return null;
    switch (this.timeline) {
      case 'recording':
        return { item: 0, step: 0, second: Math.floor(ms / 1000) };
      case 'contentless':
        return { item: 0, step: 0, second: Math.floor((ms - this.window.start) / 1000) };
      case 'video': {
        const media = this.mediaTime(ms);
        return media === null ? null : { item: 0, step: 0, second: Math.floor(media) };
      }
      case 'pictures':
      case 'shelf': {
        const shown = this.shownAt(ms);
        return shown && shown.item >= 0
          ? { item: shown.item, step: 0, second: Math.floor((ms - shown.t) / 1000) }
          : null;
      }
      case 'site': {
        const shown = this.shownAt(ms);
        if (!shown || shown.item < 0) return null;
        // The task's progress: how many of its steps the respondent had reached (each is logged once, in any order).
        const reached = this.steps.filter((s) => s.task === shown.item && s.t >= shown.t && s.t <= ms).length;
        return { item: shown.item, step: reached, second: Math.floor((ms - shown.t) / 1000) };
      }
    }
  }

  /** The index into `research.items` of the item on screen at `ms`; -1 for none (or no content). */
  item(ms: number): number {
    if (!this.research || ms < this.window.start || ms >= this.window.end) return -1;
    const items = this.research.items.length;
    if (this.research.kind === 'contentless') return -1;
    if (this.research.kind === 'video') return items > 0 ? 0 : -1;
    const shown = this.shownAt(ms);
    return shown && shown.item >= 0 && shown.item < items ? shown.item : -1;
  }

  /**
   * The item's box in the viewport (CSS px) at `ms`: the latest content_rect since the item was shown (a rect a
   * moment before the "shown" event counts: the player may report the box first); without one, the item fitted
   * into the screen with its aspect kept and centred (letterboxed).
   */
  rect(ms: number, item: number): Rect | null {
    const size = this.research?.items[item];
    if (!size || !(size.width > 0 && size.height > 0)) return null;
    const shownAt = this.research?.kind === 'video' ? this.window.start : (this.shownAt(ms)?.t ?? this.window.start);
    const latest = lastAtOrBefore(this.rects, ms, (r) => r.t);
    if (latest && latest.t >= shownAt - RECT_LEAD_MS) return latest.rect;
    if (!this.screen) return null;
    this.usedLetterbox = true;
    return letterbox(size, this.screen);
  }

  /**
   * A screen point (CSS px) in the item's natural pixels, or null without an item on screen or while a checkpoint dot
   * is (the gaze is on the dot).
   */
  contentPoint(ms: number, point: ScreenPoint): { item: number; x: number; y: number } | null {
    const item = this.item(ms);
    if (item < 0 || this.dots.some((d) => ms >= d.startMs && ms < d.endMs)) return null;
    const rect = this.rect(ms, item);
    const size = this.research?.items[item];
    if (!rect || !size) return null;
    return {
      item,
      x: ((point.x - rect.x) * size.width) / rect.width,
      y: ((point.y - rect.y) * size.height) / rect.height,
    };
  }
}

/** `size` scaled to fit `screen` with its aspect kept, centred. */
export function letterbox(size: ContentItemSize, screen: { width: number; height: number }): Rect {
  const scale = Math.min(screen.width / size.width, screen.height / size.height);
  const width = size.width * scale;
  const height = size.height * scale;
  return { x: (screen.width - width) / 2, y: (screen.height - height) / 2, width, height };
}

/** The last entry whose key is ≤ `at` in an array sorted by that key. */
function lastAtOrBefore<T>(sorted: readonly T[], at: number, key: (value: T) => number): T | undefined {
  let lo = 0;
  let hi = sorted.length - 1;
  let found: T | undefined;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const value = sorted[mid] as T;
    if (key(value) <= at) {
      found = value;
      lo = mid + 1;
    } else {
      hi = mid - 1;
    }
  }
  return found;
}
