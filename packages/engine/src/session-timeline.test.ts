import { describe, expect, it } from 'vitest';
import { EngineError } from './errors.ts';
import { ContentTimeline, calibrationLog, letterbox, sessionWindows } from './session-timeline.ts';
import type { ResearchTarget, SessionEvent } from './session-types.ts';

const SCREEN: SessionEvent = { type: 'screen', t: 0, width: 1600, height: 900, device_pixel_ratio: 2 };
const research = (kind: ResearchTarget['kind'], extra: Partial<ResearchTarget> = {}): ResearchTarget => ({
  researchId: 'c1',
  kind,
  items: [{ width: 1280, height: 720 }],
  durationSeconds: null,
  ...extra,
});

const code = (fn: () => unknown) => {
  try {
    fn();
    return 'no error';
  } catch (error) {
    expect(error).toBeInstanceOf(EngineError);
    return (error as EngineError).code;
  }
};

describe('session windows', () => {
  const events: SessionEvent[] = [
    SCREEN,
    { type: 'calibration_start', t: 1000 },
    { type: 'calibration_dot', t: 1000, x: 100, y: 100 },
    { type: 'calibration_end', t: 3000 },
    { type: 'research_start', t: 4000, campaign_id: 'c1', index: 0 },
    { type: 'research_end', t: 9000, campaign_id: 'c1' },
    // A second calibration (with validation) and a repeat of the research: the last pair counts.
    { type: 'calibration_start', t: 10_000 },
    { type: 'calibration_dot', t: 10_000, x: 100, y: 100 },
    { type: 'calibration_end', t: 12_000 },
    { type: 'validation_dot', t: 12_100, x: 800, y: 450 },
    { type: 'validation_end', t: 13_000 },
    { type: 'screen', t: 13_500, width: 1280, height: 800, device_pixel_ratio: 1 },
    { type: 'research_start', t: 14_000, campaign_id: 'c1', index: 0 },
    { type: 'research_start', t: 15_000, campaign_id: 'other', index: 1 },
    { type: 'research_end', t: 16_000, campaign_id: 'other' },
    { type: 'research_end', t: 20_000, campaign_id: 'c1' },
    { type: 'screen', t: 21_000, width: 10, height: 10, device_pixel_ratio: 1 },
  ];

  it('takes the last research pair, the latest calibration before it (to validation_end) and the screen before it', () => {
    const warnings: string[] = [];
    const w = sessionWindows(events, research('video'), 30_000, warnings);
    expect(w.research).toEqual({ start: 14_000, end: 20_000 });
    expect(w.calibration).toEqual({ start: 10_000, end: 13_000 });
    expect(w.screen).toEqual({ width: 1280, height: 800, devicePixelRatio: 1 });
    expect(warnings).toEqual([]);
  });

  it('ends at the recording end, with a warning, when research_end is missing', () => {
    const warnings: string[] = [];
    const w = sessionWindows(
      events.filter((e) => !(e.type === 'research_end' && e.campaign_id === 'c1')),
      research('video'),
      25_000,
      warnings,
    );
    expect(w.research).toEqual({ start: 14_000, end: 25_000 });
    expect(warnings).toHaveLength(1);
  });

  it('uses calibration_end when there was no validation, and the whole recording without a research', () => {
    const w = sessionWindows(events.slice(0, 7), research('video'), 30_000, []);
    expect(w.calibration).toEqual({ start: 1000, end: 3000 });
    const whole = sessionWindows(events, null, 30_000, []);
    expect(whole.research).toEqual({ start: 0, end: 30_000 });
    expect(whole.calibration).toEqual({ start: 10_000, end: 13_000 });
  });

  it('is a typed error without the research or without a screen', () => {
    expect(code(() => sessionWindows(events, { ...research('video'), researchId: 'nope' }, 30_000, []))).toBe(
      'event_log_inconsistent',
    );
    const noScreenBefore = events.filter((e) => e.type !== 'screen' || e.t > 14_000);
    expect(code(() => sessionWindows(noScreenBefore, research('video'), 30_000, []))).toBe('event_log_inconsistent');
  });

  it("gives fitGaze validation dots as calibration dots marked validation, and validation_end as the last dot's end", () => {
    const log = calibrationLog(events, { start: 10_000, end: 13_000 }, { width: 1280, height: 800 });
    expect(log.events).toEqual([
      { type: 'calibration_start', t: 10_000 },
      { type: 'calibration_dot', t: 10_000, x: 100, y: 100 },
      { type: 'calibration_end', t: 12_000 },
      { type: 'calibration_dot', t: 12_100, x: 800, y: 450, validation: true },
      { type: 'calibration_end', t: 13_000 },
    ]);
  });
});

describe('content timeline', () => {
  it('maps video frames to media time through play, time reports, pause, waiting, seek and end', () => {
    const events: SessionEvent[] = [
      { type: 'research_start', t: 1000, campaign_id: 'c1', index: 0 },
      { type: 'video_play', t: 1500, time: 0 },
      { type: 'video_time', t: 3500, time: 2 },
      { type: 'video_pause', t: 4000, time: 2.5 },
      { type: 'video_play', t: 6000, time: 2.5 },
      { type: 'video_waiting', t: 7000, time: 3.5 },
      // Time reports go on during a stall with the time standing still; playback resumes when it moves.
      { type: 'video_time', t: 7500, time: 3.5 },
      { type: 'video_time', t: 8500, time: 3.6 },
      { type: 'video_seek', t: 9000, from: 4.1, to: 10 },
      { type: 'video_ended', t: 10_000, time: 11 },
      { type: 'research_end', t: 11_000, campaign_id: 'c1' },
    ];
    const tl = new ContentTimeline(
      events,
      research('video', { durationSeconds: 11 }),
      { start: 1000, end: 11_000 },
      null,
    );
    expect(tl.mediaTime(1200)).toBeNull(); // before play
    expect(tl.mediaTime(1500)).toBe(0);
    expect(tl.mediaTime(2600)).toBeCloseTo(1.1);
    expect(tl.mediaTime(3700)).toBeCloseTo(2.2);
    expect(tl.mediaTime(5000)).toBeNull(); // paused
    expect(tl.mediaTime(6500)).toBeCloseTo(3);
    expect(tl.mediaTime(7200)).toBeNull(); // waiting
    expect(tl.mediaTime(8000)).toBeNull(); // still waiting: the time stood still
    expect(tl.mediaTime(8700)).toBeCloseTo(3.8);
    expect(tl.mediaTime(9500)).toBeCloseTo(10.5);
    expect(tl.mediaTime(10_500)).toBeNull(); // ended
    expect(tl.bucket(2600)).toEqual({ item: 0, step: 0, second: 1 });
    expect(tl.bucket(9500)).toEqual({ item: 0, step: 0, second: 10 });
    expect(tl.bucket(5000)).toBeNull();
    expect(tl.bucket(500)).toBeNull(); // outside the window
  });

  it('caps media time at the next report: a stall before it does not push frames past it', () => {
    const events: SessionEvent[] = [
      { type: 'video_play', t: 0, time: 0 },
      { type: 'video_time', t: 3000, time: 1 },
    ];
    const tl = new ContentTimeline(events, research('video'), { start: 0, end: 5000 }, null);
    expect(tl.mediaTime(2500)).toBe(1);
    expect(tl.mediaTime(3500)).toBeCloseTo(1.5);
  });

  it('puts picture frames in (picture, seconds since shown) and site frames in (task, step, seconds since shown)', () => {
    const pics = new ContentTimeline(
      [
        { type: 'picture_shown', t: 1000, index: 0, image: 'a' },
        { type: 'picture_shown', t: 4000, index: 1, image: 'b' },
      ],
      research('pictures', {
        items: [
          { width: 100, height: 100 },
          { width: 200, height: 100 },
        ],
      }),
      { start: 500, end: 8000 },
      { width: 1600, height: 900 },
    );
    expect(pics.bucket(700)).toBeNull();
    expect(pics.bucket(2999)).toEqual({ item: 0, step: 0, second: 1 });
    expect(pics.bucket(6100)).toEqual({ item: 1, step: 0, second: 2 });
    expect(pics.item(6100)).toBe(1);
    const site = new ContentTimeline(
      [
        { type: 'task_shown', t: 1000, task: 0 },
        { type: 'task_step', t: 2500, task: 0, step: 1 },
        { type: 'task_step', t: 3500, task: 0, step: 0 },
        { type: 'task_shown', t: 5000, task: 1 },
      ],
      research('site', {
        items: [
          { width: 1280, height: 3000 },
          { width: 1280, height: 800 },
        ],
      }),
      { start: 0, end: 9000 },
      null,
    );
    expect(site.bucket(2000)).toEqual({ item: 0, step: 0, second: 1 });
    // The step is the task's progress: steps reached so far, in whatever order they were reached.
    expect(site.bucket(3000)).toEqual({ item: 0, step: 1, second: 2 });
    expect(site.bucket(4000)).toEqual({ item: 0, step: 2, second: 3 });
    expect(site.bucket(5500)).toEqual({ item: 1, step: 0, second: 0 });
    const contentless = new ContentTimeline(
      [],
      research('contentless', { items: [] }),
      { start: 2000, end: 9000 },
      null,
    );
    expect(contentless.bucket(4500)).toEqual({ item: 0, step: 0, second: 2 });
    expect(contentless.item(4500)).toBe(-1);
    const whole = new ContentTimeline([], null, { start: 0, end: 9000 }, null);
    expect(whole.timeline).toBe('recording');
    expect(whole.bucket(4500)).toEqual({ item: 0, step: 0, second: 4 });
  });

  it('places nothing during a checkpoint dot between pictures, and no gaze on a video during an overlay dot', () => {
    const two = research('pictures', {
      items: [
        { width: 1600, height: 900 },
        { width: 1600, height: 900 },
      ],
    });
    const pics = new ContentTimeline(
      [
        { type: 'picture_shown', t: 1000, index: 0, image: 'a' },
        { type: 'checkpoint_dot', t: 4000, x: 800, y: 450 },
        { type: 'picture_shown', t: 5500, index: 1, image: 'b' },
      ],
      two,
      { start: 1000, end: 8000 },
      { width: 1600, height: 900 },
    );
    expect(pics.bucket(3900)).toEqual({ item: 0, step: 0, second: 2 });
    // The dot (4.0-5.5 s): no picture on screen, so no bucket, no item, no gaze on content.
    expect(pics.bucket(4200)).toBeNull();
    expect(pics.item(5000)).toBe(-1);
    expect(pics.contentPoint(5000, { x: 800, y: 450 })).toBeNull();
    expect(pics.bucket(5600)).toEqual({ item: 1, step: 0, second: 0 });
    expect(pics.contentPoint(5600, { x: 800, y: 450 })).toEqual({ item: 1, x: 800, y: 450 });

    const video = new ContentTimeline(
      [
        { type: 'video_play', t: 1000, time: 0 },
        { type: 'checkpoint_dot', t: 3000, x: 100, y: 100 },
        { type: 'video_time', t: 4000, time: 3 },
      ],
      research('video', { items: [{ width: 1600, height: 900 }] }),
      { start: 1000, end: 8000 },
      { width: 1600, height: 900 },
    );
    // The video plays on under the overlay dot: its seconds still count, the gaze is on the dot.
    expect(video.bucket(3500)).toEqual({ item: 0, step: 0, second: 2 });
    expect(video.contentPoint(3500, { x: 100, y: 100 })).toBeNull();
    expect(video.contentPoint(4100, { x: 100, y: 100 })).not.toBeNull();
  });

  it("maps gaze into the item's natural pixels through content_rect, else letterboxed on the screen", () => {
    const items = [
      { width: 1000, height: 500 },
      { width: 500, height: 1000 },
    ];
    const tl = new ContentTimeline(
      [
        { type: 'picture_shown', t: 1000, index: 0, image: 'a' },
        { type: 'content_rect', t: 1010, x: 100, y: 200, width: 500, height: 250 },
        { type: 'content_rect', t: 2000, x: 0, y: 0, width: 1000, height: 500 },
        { type: 'picture_shown', t: 3000, index: 1, image: 'b' },
      ],
      research('pictures', { items }),
      { start: 0, end: 9000 },
      { width: 1600, height: 900 },
    );
    expect(tl.contentPoint(1500, { x: 350, y: 325 })).toEqual({ item: 0, x: 500, y: 250 });
    expect(tl.contentPoint(2500, { x: 350, y: 325 })).toEqual({ item: 0, x: 350, y: 325 });
    expect(tl.usedLetterbox).toBe(false);
    // Picture 1 has no rect of its own: fitted into 1600x900 it is 450x900 at x = 575.
    expect(letterbox(items[1] as { width: number; height: number }, { width: 1600, height: 900 })).toEqual({
      x: 575,
      y: 0,
      width: 450,
      height: 900,
    });
    expect(tl.contentPoint(3500, { x: 800, y: 450 })).toEqual({ item: 1, x: 250, y: 500 });
    expect(tl.usedLetterbox).toBe(true);
    expect(tl.contentPoint(500, { x: 800, y: 450 })).toBeNull(); // before the first picture
  });
});
