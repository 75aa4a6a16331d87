/**
 * A phantom respondent taken through a real installation's API (decision 035), as the respondent page takes a person:
 * the quota link, consent, the steps, one recording segment whose recorder chunks and event log are sent as they
 * would be recorded (the server accepts events up to `clockSlackMs` ahead of its clock, so the phantom runs that
 * far ahead of real time), the completion; and the phantom's truth attached to the session through the cabinet.
 */
import { createHash } from 'node:crypto';
import {
  CONSENT_POLICY_VERSION,
  type PhantomTruthSaved,
  RESPONDENT_LIMITS,
  type RespondentEvent,
  type SessionEnd,
  type SessionState,
  type StartSessionOutput,
} from '@emolens/contracts';
import type { TruthFile } from '../truth.ts';
import type { PlannedSession } from '../validation/session-plan.ts';
import { truthForUpload } from '../validation/session-truth.ts';
import { CabinetSession, callJson, type Http } from './http.ts';

export type { Http } from './http.ts';

export interface PhantomUpload {
  /** The recording (webm) and its truth file, as `generate` wrote them. */
  video: Buffer;
  truth: TruthFile;
  /** The session the recording was made for: its event log on the recording's clock. */
  plan: PlannedSession;
  /** The quota link's token (the last part of its address). */
  link: string;
  /** A cabinet user who owns the link's project (or staff): the truth is attached with their login. */
  user: { username: string; password: string };
  /** Shown as the respondent's participant id; default the phantom's source and script. */
  participant?: string;
  /** The time the page's camera and face check take before the recording starts, ms (default 0). */
  setupMs?: number;
}

export interface Uploaded {
  sessionId: string;
  researchId: string;
  end: SessionEnd;
  truth: PhantomTruthSaved;
  chunks: number;
  events: number;
}

/** How far ahead of the server's clock of the session the phantom sends (under its slack). */
const AHEAD_MS = RESPONDENT_LIMITS.clockSlackMs - 2000;
const TICK_MS = 250;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));

/** The recording cut into one chunk per recorder timeslice; the first starts with the webm header, as a recorder's. */
export function recorderChunks(video: Buffer, durationMs: number): Buffer[] {
  const count = Math.max(1, Math.ceil(durationMs / RESPONDENT_LIMITS.timesliceMs));
  const size = Math.ceil(video.length / count);
  const chunks: Buffer[] = [];
  for (let i = 0; i * size < video.length; i++) chunks.push(video.subarray(i * size, (i + 1) * size));
  return chunks;
}

export async function uploadPhantom(http: Http, upload: PhantomUpload): Promise<Uploaded> {
  const { plan, truth } = upload;
  // The cabinet first: wrong credentials should not use up a quota slot.
  const cabinet = new CabinetSession(http);
  await cabinet.login(upload.user.username, upload.user.password);

  const token = encodeURIComponent(upload.link);
  await callJson(http, 'quota link', { method: 'GET', path: `/r/links/${token}` });
  const screen = { width: plan.screen.width, height: plan.screen.height, device_pixel_ratio: 1 };
  const started = await callJson<StartSessionOutput>(http, 'session start', {
    method: 'POST',
    path: `/r/links/${token}/sessions`,
    json: {
      consent: { accepted: true, policy_version: CONSENT_POLICY_VERSION, language: 'en', panel_consent: true },
      panel: { participant_id: upload.participant ?? `phantom-${truth.script.source}-${truth.script.name}` },
      screen,
    },
  });
  const session: SessionState = started.session;
  const research = session.researches[0];
  if (session.researches.length !== 1 || !research)
    throw new Error(`the link's scenario shows ${session.researches.length} researches; a phantom watches exactly one`);
  if (session.surveys.screener || session.surveys.survey)
    throw new Error("the link's scenario has a questionnaire, which a phantom does not answer: use one without");

  const secret = { authorization: `Bearer ${started.secret}` };
  const path = (rest: string) => `/r/sessions/${session.session_id}${rest}`;
  // The session clock as the browser keeps it: the server's at the start, then this process's own.
  const origin = Date.now() - session.clock_ms;
  const clock = () => Date.now() - origin;
  let seq = 0;
  const send = async (events: RespondentEvent[]) => {
    for (let i = 0; i < events.length; i += RESPONDENT_LIMITS.eventsPerBatch) {
      const batch = events.slice(i, i + RESPONDENT_LIMITS.eventsPerBatch);
      await callJson(http, 'events', {
        method: 'POST',
        path: path('/events'),
        headers: secret,
        json: { seq, events: batch },
      });
      seq++;
    }
  };
  // A little behind the clock, so they precede the segment's start whatever the two clocks' drift.
  const now = Math.max(0, clock() - 500);
  await send([
    { type: 'step', t: now, step: 'camera' },
    { type: 'step', t: now, step: 'face_check' },
    { type: 'face_check', t: now, ok: true, faces: 1 },
    { type: 'step', t: now, step: 'calibration' },
  ]);

  await sleep(upload.setupMs ?? 0);
  const segment = await callJson<{ segment: number; offset_ms: number }>(http, 'segment', {
    method: 'POST',
    path: path('/segments'),
    headers: secret,
    json: { mime_type: 'video/webm', screen },
  });
  // The plan's log on the session clock from the segment's start (where the worker puts the recording's first
  // frame), its research the session's own.
  const base = segment.offset_ms;
  if (base < now) throw new Error(`the segment starts at ${base} ms, before the steps logged at ${now} ms`);
  const events = plan.events.map((e) => {
    const moved = { ...e, t: Math.round(base + e.t) };
    if ('campaign_id' in moved) moved.campaign_id = research.campaign_id;
    return moved as RespondentEvent;
  });
  // A session always calibrates on the page, and the server completes none without it: a plan made without one (a
  // phantom scored on expressions, blinks or pose alone) logs an empty calibration where its recording starts.
  if (!events.some((e) => e.type === 'calibration_end')) {
    const at = events.findIndex((e) => e.type !== 'segment_start' && e.type !== 'screen');
    events.splice(
      at < 0 ? events.length : at,
      0,
      { type: 'calibration_start', t: base },
      { type: 'calibration_end', t: base },
    );
  }
  const researchStart = events.findIndex((e) => e.type === 'research_start');
  if (researchStart >= 0)
    events.splice(researchStart, 0, { type: 'step', t: events[researchStart]?.t ?? base, step: 'content' });

  const chunks = recorderChunks(upload.video, truth.recording.durationMs);
  let sentChunks = 0;
  let sentEvents = 0;
  while (sentChunks < chunks.length || sentEvents < events.length) {
    const reach = clock() + AHEAD_MS - base;
    for (; sentChunks < chunks.length && (sentChunks + 1) * RESPONDENT_LIMITS.timesliceMs <= reach; sentChunks++) {
      const bytes = chunks[sentChunks] as Buffer;
      await callJson(http, `chunk ${sentChunks}`, {
        method: 'PUT',
        path: path(`/segments/${segment.segment}/chunks/${sentChunks}`),
        headers: {
          ...secret,
          'content-type': 'application/octet-stream',
          'x-chunk-sha256': createHash('sha256').update(bytes).digest('hex'),
        },
        body: new Uint8Array(bytes),
      });
    }
    let due = sentEvents;
    while (due < events.length && (events[due] as RespondentEvent).t - base <= reach) due++;
    if (due > sentEvents) await send(events.slice(sentEvents, due));
    sentEvents = due;
    if (sentChunks < chunks.length || sentEvents < events.length) await sleep(TICK_MS);
  }
  const last = events.at(-1)?.t ?? base;
  await send([{ type: 'step', t: last + 1, step: 'save' }]);

  const saved = await callJson<PhantomTruthSaved>(cabinet.request, 'truth', {
    method: 'PUT',
    path: `/api/cabinet/respondent-sessions/${session.session_id}/phantom-truth/`,
    json: truthForUpload(truth),
  });
  const end = await callJson<SessionEnd>(http, 'completion', {
    method: 'POST',
    path: path('/complete'),
    headers: secret,
    json: { segments: [{ segment: segment.segment, chunks: chunks.length }], event_batches: seq },
  });
  return {
    sessionId: session.session_id,
    researchId: research.campaign_id,
    end,
    truth: saved,
    chunks: chunks.length,
    events: events.length,
  };
}
