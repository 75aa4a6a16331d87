import { createHash } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  CALIBRATION_TIMING,
  CONSENT_POLICY_VERSION,
  calibrationPathAt,
  completeSessionInput,
  eventBatchInput,
  type Outcome,
  RESPONDENT_LIMITS,
  type RespondentEvent,
  respondentAnswersInput,
  type SurveySlot,
  startSegmentInput,
  startSessionInput,
  VALIDATION_POINTS,
} from '@emolens/contracts';
import type { RespondentSessionRow } from '../../db/types.ts';
import { saveAnswers } from '../respondents/answers.ts';
import { completeSession } from '../respondents/completion.ts';
import { postEvents } from '../respondents/event-log.ts';
import { putChunk } from '../respondents/recording.ts';
import { type RespondentsDeps, type Signing, startSegment, startSession } from '../respondents/respondents.service.ts';
import { chunksOf } from './demo-media.ts';
import type { DemoPersona } from './demo-script.ts';

/**
 * A demo respondent's browser: the journey of the respondent page through the respondent services (the same calls
 * the `/r` routes make, with the same input schemas), in real time, because the server holds event times to the
 * session's clock. Consent, the screener, the recording (chunks as the recorder makes them, events as the page logs
 * them), the survey, the save.
 */

const USER_AGENT = 'Emolens demo respondent (seeded on first start)';
/** The page's 3-2-1 countdown; the calibration's timings are the page's own (CALIBRATION_TIMING). */
const COUNTDOWN_MS = 3000;
const { dotLogMs: DOT_LOG_MS, stillDotMs: STILL_DOT_MS } = CALIBRATION_TIMING;
const roundPoint = (p: { x: number; y: number }) => ({ x: Math.round(p.x), y: Math.round(p.y) });
const VIDEO_TIME_LOG_MS = 250;
/** How often the simulated page sends what it has logged and recorded. */
const SEND_EVERY_MS = 1000;

type Screen = DemoPersona['screen'];

/** The recorded part of a journey: its events on the recording's clock (ms from its start) and its length. */
export interface RecordedJourney {
  events: RespondentEvent[];
  recordingMs: number;
}

function calibrationEvents(start: number, seconds: number, screen: Screen): RespondentEvent[] {
  const count = (seconds * 1000) / DOT_LOG_MS;
  const dots = Array.from({ length: count }, (_, i) => ({
    type: 'calibration_dot' as const,
    t: start + i * DOT_LOG_MS,
    ...roundPoint(calibrationPathAt(i / count, screen.width, screen.height)),
  }));
  return [{ type: 'calibration_start', t: start }, ...dots, { type: 'calibration_end', t: start + seconds * 1000 }];
}

function validationEvents(start: number, screen: Screen): RespondentEvent[] {
  const points = VALIDATION_POINTS.slice(0, RESPONDENT_LIMITS.validationPoints);
  const dots = points.map(([fx, fy], i) => ({
    type: 'validation_dot' as const,
    t: start + i * STILL_DOT_MS,
    x: Math.round(fx * screen.width),
    y: Math.round(fy * screen.height),
  }));
  return [...dots, { type: 'validation_end', t: start + points.length * STILL_DOT_MS }];
}

function videoEvents(start: number, researchId: string, seconds: number): RespondentEvent[] {
  const play = start + 120;
  const ticks = Array.from({ length: Math.floor((seconds * 1000) / VIDEO_TIME_LOG_MS) - 1 }, (_, i) => ({
    type: 'video_time' as const,
    t: play + (i + 1) * VIDEO_TIME_LOG_MS,
    time: ((i + 1) * VIDEO_TIME_LOG_MS) / 1000,
  }));
  const ended = play + seconds * 1000 + 30;
  return [
    { type: 'research_start', t: start, campaign_id: researchId, index: 0 },
    { type: 'video_play', t: play, time: 0 },
    ...ticks,
    { type: 'video_ended', t: ended, time: seconds },
    { type: 'research_end', t: ended + 20, campaign_id: researchId },
  ];
}

/**
 * What the page logs from the moment the recorder starts (calibration start) to the survey: the segment and the
 * screen, the countdown, the calibration for the flow's seconds, the validation dots, then the video to its end.
 * The recording runs a second past the video.
 */
export function recordedJourney(
  researchId: string,
  screen: Screen,
  calibrationSeconds: number,
  videoSeconds: number,
): RecordedJourney {
  const head: RespondentEvent[] = [
    { type: 'segment_start', t: 0, segment: 0 },
    { type: 'screen', t: 0, ...screen },
  ];
  const calibration = calibrationEvents(COUNTDOWN_MS, calibrationSeconds, screen);
  const validation = validationEvents((calibration.at(-1)?.t ?? 0) + 50, screen);
  const content = (validation.at(-1)?.t ?? 0) + 300;
  const video = videoEvents(content + 100, researchId, videoSeconds);
  const end = video.at(-1)?.t ?? 0;
  return {
    events: [
      ...head,
      ...calibration,
      ...validation,
      { type: 'step', t: content, step: 'content' },
      ...video,
      { type: 'step', t: end + 200, step: 'survey' },
    ],
    recordingMs: end + 1000,
  };
}

/** One respondent's session as their browser holds it: the services' deps, the session row and its clock. */
interface Browser {
  deps: RespondentsDeps;
  signing: Signing;
  session: RespondentSessionRow;
  /** `Date.now()` at the session clock's zero. */
  origin: number;
  seq: number;
  lastT: number;
}

const clock = (b: Browser) => Date.now() - b.origin;

async function sendEvents(b: Browser, events: RespondentEvent[]): Promise<void> {
  if (!events.length) return;
  await postEvents(b.deps, b.session, eventBatchInput.parse({ seq: b.seq, events }));
  b.seq += 1;
  b.lastT = events.at(-1)?.t ?? b.lastT;
}

/** Events of steps that happen now, in order (never before the last logged one). */
function stepsNow(b: Browser, steps: RespondentEvent[]): RespondentEvent[] {
  let t = Math.max(b.lastT, Math.round(clock(b)));
  return steps.map((e) => ({ ...e, t: t++ }));
}

async function answer(b: Browser, slot: SurveySlot, answers: unknown): Promise<void> {
  await saveAnswers(b.deps, b.signing, b.session, slot, respondentAnswersInput.parse({ answers, final: true }));
}

async function start(deps: RespondentsDeps, signing: Signing, token: string, persona: DemoPersona): Promise<Browser> {
  const input = startSessionInput.parse({
    consent: { accepted: true, policy_version: CONSENT_POLICY_VERSION, language: 'en', panel_consent: true },
    panel: { participant_id: persona.participant },
    screen: persona.screen,
  });
  const started = await startSession(deps, signing, token, input, USER_AGENT);
  const session = await deps.respondents.findSessionById(started.session.session_id);
  if (!session) throw new Error('the demo session was not stored');
  return { deps, signing, session, origin: Date.now() - started.session.clock_ms, seq: 0, lastT: 0 };
}

/**
 * The recording in real time: every second, the chunks the recorder has made by then (one per timeslice) and the
 * events logged by then are sent. Returns how many chunks were sent.
 */
async function record(
  b: Browser,
  clip: Buffer,
  journey: RecordedJourney,
  screen: Screen,
  signal?: AbortSignal,
): Promise<number> {
  const segment = await startSegment(b.deps, b.session, startSegmentInput.parse({ mime_type: 'video/webm', screen }));
  const base = Math.max(segment.offset_ms, b.lastT);
  const events = journey.events.map((e) => ({ ...e, t: base + e.t }));
  const chunks = chunksOf(clip, Math.ceil(journey.recordingMs / RESPONDENT_LIMITS.timesliceMs));
  let sentChunks = 0;
  let sentEvents = 0;
  while (sentChunks < chunks.length || sentEvents < events.length) {
    const now = clock(b);
    const recorded = (index: number) =>
      Math.min((index + 1) * RESPONDENT_LIMITS.timesliceMs, journey.recordingMs) <= now - base;
    for (; sentChunks < chunks.length && recorded(sentChunks); sentChunks++) {
      const bytes = chunks[sentChunks] as Buffer;
      const sha = createHash('sha256').update(bytes).digest('hex');
      await putChunk(b.deps, b.session, { segment: segment.segment, index: sentChunks }, bytes, sha);
    }
    const due = events.slice(sentEvents).filter((e) => e.t <= now);
    await sendEvents(b, due);
    sentEvents += due.length;
    if (sentChunks < chunks.length || sentEvents < events.length) await sleep(SEND_EVERY_MS, undefined, { signal });
  }
  return chunks.length;
}

/**
 * One demo respondent from consent to the save: the face check and the screener, the recording (`clip`, at least
 * the journey's length), the survey, then completion, which queues the recording for processing as any completion
 * does. The session and how it ended.
 */
export async function takePart(
  deps: RespondentsDeps,
  signing: Signing,
  link: { token: string; researchId: string; calibrationSeconds: number; videoSeconds: number },
  persona: DemoPersona,
  clip: Buffer,
  signal?: AbortSignal,
): Promise<{ sessionId: string; outcome: Outcome }> {
  const journey = recordedJourney(link.researchId, persona.screen, link.calibrationSeconds, link.videoSeconds);
  const b = await start(deps, signing, link.token, persona);
  await sendEvents(
    b,
    stepsNow(b, [
      { type: 'step', t: 0, step: 'camera' },
      { type: 'step', t: 0, step: 'face_check' },
      { type: 'face_check', t: 0, ok: true, faces: 1 },
      { type: 'step', t: 0, step: 'screener' },
    ]),
  );
  await answer(b, 'screener', {
    sex: { choices: [persona.sex ?? 'skip'] },
    age: { number: persona.age },
  });
  await sendEvents(b, stepsNow(b, [{ type: 'step', t: 0, step: 'calibration' }]));
  const chunks = await record(b, clip, journey, persona.screen, signal);
  await answer(b, 'survey', { liked: { choices: [persona.liked] }, again: { number: persona.again } });
  await sendEvents(b, stepsNow(b, [{ type: 'step', t: 0, step: 'save' }]));
  const end = await completeSession(
    deps,
    signing,
    b.session,
    completeSessionInput.parse({ segments: [{ segment: 0, chunks }], event_batches: b.seq }),
  );
  return { sessionId: b.session.id, outcome: end.outcome };
}
