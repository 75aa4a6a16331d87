import { randomInt } from 'node:crypto';
import {
  CALIBRATION_SECONDS,
  CONSENT_POLICY_VERSION,
  type LinkInfo,
  type LinkState,
  MTURK_PREVIEW_ASSIGNMENT,
  type Outcome,
  type PanelParams,
  RESPONDENT_LIMITS,
  type RespondentResearch,
  type SessionEnd,
  type SessionState,
  type StartSessionOutput,
  type startSegmentInput,
  type startSessionInput,
  storedResearchSettings,
  type TurnAwayOutput,
} from '@emolens/contracts';
import type { z } from 'zod';
import type { Deps } from '../../context.ts';
import { isUniqueViolation } from '../../db/sql.ts';
import type { ResearchRow, RespondentSessionRow } from '../../db/types.ts';
import { AppError } from '../../http/errors.ts';
import { hashToken, randomToken } from '../auth/tokens.ts';
import { checkRules } from '../calibration-check/rules.ts';
import { type StoredFile, storedFile } from '../media/serving.ts';
import { adapterOfProject } from '../recruiting/platforms/index.ts';
import type { ResearchWithProject } from '../researches/researches.repository.ts';
import { galleryOf } from '../researches/researches.service.ts';
import { contentSeconds } from '../session-estimate/session-estimate.service.ts';
import { analysisOf, deviceAnalysisRules, requireSegmentType } from './analysis-rules.ts';
import { newShortCode } from './completion-code.ts';
import { endOf } from './ends.ts';
import { checkMediaUrl, signedMediaUrl } from './media-links.ts';
import { sessionQuestionnaires } from './questionnaires.ts';
import type { LinkContext } from './respondents.repository.ts';

export type RespondentsDeps = Pick<
  Deps,
  | 'respondents'
  | 'respondentAnswers'
  | 'completions'
  | 'recording'
  | 'sessionEnds'
  | 'analysisSite'
  | 'storage'
  | 'config'
  | 'log'
  | 'processing'
  | 'queue'
  | 'licences'
  | 'prolificStudies'
>;

/** The app secret signs completion codes and content URLs. */
export interface Signing {
  secret: string;
}

// A calibration that failed its check twice ends with an outcome too (the panel is told screen-out; decision 050).
// So does a device too slow for privacy mode whose respondent stopped (decision 064).
const ENDED_WITH_OUTCOME = new Set([
  'completed',
  'screened_out',
  'quota_full',
  'calibration_failed',
  'device_too_slow',
]);

// ---------------------------------------------------------------------------------------------
// The link

/**
 * What a link is now:
 * - the project is a draft (`new`): `preview` — the owner tries the journey, nothing is counted;
 * - completed or archived: `finished`;
 * - active, and a research of the link's scenario is paused (its campaign status `paused`, set by
 *   the cabinet to stop collection for a while), or the owner's metered account has no sessions
 *   left (issue 15, item 3): `suspended`;
 * - active, and the link's quota or the scenario's quota is taken by completes that hold a slot
 *   (quota state pending or counted): `quota_full`;
 * - otherwise `open`.
 */
async function linkState(deps: RespondentsDeps, link: LinkContext): Promise<LinkState> {
  if (link.project_status === 'new') return 'preview';
  if (link.project_status !== 'active') return 'finished';
  if (await deps.respondents.scenarioPaused(link.scenario_id)) return 'suspended';
  if (await deps.licences.exhausted(link.project_id)) return 'suspended';
  return (await quotaFull(deps, link)) ? 'quota_full' : 'open';
}

async function quotaFull(deps: RespondentsDeps, link: LinkContext): Promise<boolean> {
  if (link.quota_size === null && link.scenario_quota === null) return false;
  const taken = await deps.respondents.slotsTaken(link.link_id, link.scenario_id);
  return (
    (link.quota_size !== null && taken.link >= link.quota_size) ||
    (link.scenario_quota !== null && taken.scenario >= link.scenario_quota)
  );
}

/**
 * The face check runs when both the link and its scenario ask for it. Both switches are on by
 * default, so turning either off is a researcher's explicit choice (a link for a panel whose
 * respondents are checked elsewhere, a scenario without faces on screen), and it is kept.
 */
const useFaceChecker = (link: LinkContext) => link.link_face_checker && link.scenario_face_checker;

function settingsOf(research: Pick<ResearchRow, 'settings'>) {
  return storedResearchSettings(research.settings);
}

/** The orientation the respondent is asked for: the first research of the scenario that sets one. */
function orientationOf(researches: Pick<ResearchRow, 'settings'>[]) {
  return researches.map((r) => settingsOf(r).researchOrientation).find((o) => o !== 'all') ?? 'all';
}

async function findLinkOr404(deps: RespondentsDeps, token: string): Promise<LinkContext> {
  const link = await deps.respondents.findLink(token);
  if (!link) throw new AppError('not_found', { message: 'respondent.linkNotFound' });
  return link;
}

export async function linkInfo(deps: RespondentsDeps, token: string): Promise<LinkInfo> {
  const link = await findLinkOr404(deps, token);
  const researches = await deps.respondents.researchesOfScenario(link.scenario_id);
  return {
    state: await linkState(deps, link),
    project_title: link.project_title,
    platform: link.platform,
    language: link.language,
    flow_type: link.flow_type,
    calibration_seconds: CALIBRATION_SECONDS[link.flow_type],
    consent_policy_version: CONSENT_POLICY_VERSION,
    use_face_checker: useFaceChecker(link),
    screener_first: link.is_screener_first,
    orientation: orientationOf(researches),
    video_on_device: researches.some((r) => settingsOf(r).videoOnDevice),
  };
}

/**
 * The start page turned a respondent away at a full quota (issue 28, item 15): recorded, so the fieldwork counts
 * show them under "Quota full", when the link is full now; otherwise nothing is counted.
 */
export async function turnAway(deps: RespondentsDeps, token: string): Promise<TurnAwayOutput> {
  const link = await findLinkOr404(deps, token);
  if ((await linkState(deps, link)) !== 'quota_full') return { recorded: false };
  await deps.sessionEnds.recordTurnAway(link);
  return { recorded: true };
}

// ---------------------------------------------------------------------------------------------
// Starting a session

/** Who the respondent is to the panel: its own id parameter, else Cint's RID, MTurk's worker id, Prolific's PID. */
function participantOf(platform: LinkContext['platform'], panel: PanelParams): string | null {
  if (panel.participant_id) return panel.participant_id;
  if (platform === 'cint' && panel.RID) return panel.RID;
  if (platform === 'amazon' && panel.workerId) return panel.workerId;
  if (platform === 'prolific' && panel.PROLIFIC_PID) return panel.PROLIFIC_PID;
  return null;
}

function shuffled<T>(items: T[]): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = randomInt(i + 1);
    [out[i], out[j]] = [out[j] as T, out[i] as T];
  }
  return out;
}

export async function startSession(
  deps: RespondentsDeps,
  signing: Signing,
  token: string,
  input: z.infer<typeof startSessionInput>,
  userAgent: string | undefined,
): Promise<StartSessionOutput> {
  const link = await findLinkOr404(deps, token);
  const state = await linkState(deps, link);
  if (state === 'finished') throw new AppError('invalid_state', { message: 'respondent.collectionFinished' });
  if (state === 'suspended') throw new AppError('invalid_state', { message: 'respondent.collectionSuspended' });
  if (input.consent.policy_version !== CONSENT_POLICY_VERSION) {
    throw new AppError('conflict', { message: 'respondent.consentOutdated' });
  }
  if (link.platform === 'cint' && !input.consent.panel_consent) {
    throw new AppError('bad_request', { message: 'respondent.panelConsentRequired' });
  }
  const panel = input.panel;
  // MTurk's preview: the worker has not accepted the task; the page shows it and records nothing.
  if (panel.assignmentId === MTURK_PREVIEW_ASSIGNMENT) {
    throw new AppError('invalid_state', { message: 'respondent.previewNotSaved' });
  }
  if (panel.turkSubmitTo && !deps.config.mturkSubmitOrigins.includes(new URL(panel.turkSubmitTo).origin)) {
    throw new AppError('bad_request', { message: 'respondent.turkSubmitInvalid' });
  }
  const preview = state === 'preview';
  const participant = participantOf(link.platform, panel);
  if (participant && !preview && (await deps.respondents.participantCompleted(link.link_id, participant))) {
    throw new AppError('conflict', { message: 'respondent.alreadyCompleted' });
  }
  const researches = await deps.respondents.researchesOfScenario(link.scenario_id);
  const ids = researches.map((r) => r.id);
  const order = link.is_random_order ? shuffled(ids) : ids;
  // A full quota ends the session before anything is recorded: the panel is told at once.
  const full = state === 'quota_full';
  const secret = randomToken(32);
  const session = await deps.respondents.insertSession(
    {
      link_id: link.link_id,
      project_id: link.project_id,
      scenario_id: link.scenario_id,
      secret_hash: hashToken(secret),
      status: full ? 'quota_full' : 'started',
      is_preview: preview,
      platform: link.platform,
      participant_id: participant,
      panel,
      language: link.language,
      consent_policy_version: input.consent.policy_version,
      consent_language: input.consent.language,
      panel_consent: input.consent.panel_consent,
      research_order: order,
      screen_width: input.screen.width,
      screen_height: input.screen.height,
      device_pixel_ratio: input.screen.device_pixel_ratio,
      user_agent: userAgent?.slice(0, 500) ?? null,
      outcome: full ? 'quota_full' : null,
      // Privacy mode: the device's speed decides where the analysis runs (decision 064).
      analysis_site: deviceAnalysisRules(researches).onDevice ? 'undecided' : 'server',
    },
    full,
  );
  if (full && !preview) await publishEnded(deps, session.id);
  return { secret, session: await sessionState(deps, signing, session, link) };
}

/**
 * Tells the subscribers (webhooks) a session ended before completion (decision 027). Nothing in the respondent's
 * journey waits on it: a publish that fails is logged, and the respondent still gets their answer.
 */
export async function publishEnded(deps: Pick<RespondentsDeps, 'queue' | 'log'>, sessionId: string): Promise<void> {
  try {
    await deps.queue.publish('session.ended', { session_id: sessionId });
  } catch (err) {
    deps.log.warn({ err, session: sessionId }, 'session.ended not published');
  }
}

// ---------------------------------------------------------------------------------------------
// The session's state (first start and every reload)

function researchOf(
  signing: Signing,
  sessionId: string,
  research: ResearchRow,
  media: Awaited<ReturnType<RespondentsDeps['respondents']['readyMediaOf']>>,
  language: LinkContext['language'],
): RespondentResearch {
  const settings = settingsOf(research);
  const own = media.filter((m) => m.campaign_id === research.id);
  const url = (id: string) => signedMediaUrl(signing.secret, id, sessionId);
  const video = research.content_type === 'video' ? own.find((m) => m.kind === 'video') : undefined;
  const asResearch = research as ResearchWithProject;
  return {
    campaign_id: research.id,
    content_type: research.content_type,
    orientation: settings.researchOrientation,
    task_language: settings.currentTaskLang ?? language,
    video: video ? { url: url(video.id), duration_seconds: video.duration_seconds } : null,
    duration_seconds: contentSeconds(asResearch, own) ?? null,
    picture_gallery: galleryOf(asResearch, own),
    shelf_content_scenario: research.shelf_content_scenario,
    shelf_setting: research.shelf_setting,
    web_resource_scenario: settings.webResourceScenario,
    site_url: research.site_url,
    is_figma: settings.isFigma,
    auto_show_task_description: settings.autoShowTaskDescription,
    drift_checkpoints: settings.driftCheckpoints,
    drift_overlay: settings.driftOverlay,
    task_time_limit_seconds: settings.taskTimeLimitSeconds,
    images: Object.fromEntries(own.filter((m) => m.kind === 'image').map((m) => [m.id, url(m.id)])),
  };
}

/** The researches of a session in its order (a research deleted since is left out). */
export async function researchesInOrder(deps: RespondentsDeps, session: RespondentSessionRow): Promise<ResearchRow[]> {
  const rows = await deps.respondents.researchesByIds(session.research_order);
  const byId = new Map(rows.map((r) => [r.id, r]));
  return session.research_order.map((id) => byId.get(id)).filter((r): r is ResearchRow => !!r);
}

export async function endOfSession(
  deps: RespondentsDeps,
  signing: Signing,
  session: RespondentSessionRow,
  link?: LinkContext,
  researches?: ResearchRow[],
): Promise<SessionEnd | null> {
  if (!ENDED_WITH_OUTCOME.has(session.status) || !session.outcome) return null;
  // A preview shows the end the respondent would reach, without a code: nothing was saved.
  if (session.is_preview) return { outcome: session.outcome, code: null, token: null, redirect_url: null, mturk: null };
  const ctx = link ?? (await deps.respondents.linkById(session.link_id));
  const platform = adapterOfProject(session.platform);
  return endOf(signing.secret, {
    session,
    outcome: session.outcome as Outcome,
    shortCode: session.completion_code ?? (await giveShortCode(deps, session.id)),
    researches: researches ?? (await researchesInOrder(deps, session)),
    redirectLinks: ctx.redirect_links,
    platformData: platform?.endData ? await platform.endData(deps, session.research_order) : undefined,
  });
}

/**
 * The short completion code of a session whose end is shown for the first time. A clash with another session's code
 * (one in 2^69 per pair) is refused by the unique index and drawn again.
 */
async function giveShortCode(deps: RespondentsDeps, sessionId: string): Promise<string> {
  for (let attempt = 0; ; attempt++) {
    try {
      const code = await deps.sessionEnds.assignCompletionCode(sessionId, newShortCode());
      if (code) return code;
      throw new AppError('not_found', { message: 'respondent.sessionNotFound' });
    } catch (err) {
      if (!isUniqueViolation(err) || attempt >= 2) throw err;
    }
  }
}

export async function sessionState(
  deps: RespondentsDeps,
  signing: Signing,
  session: RespondentSessionRow,
  knownLink?: LinkContext,
): Promise<SessionState> {
  const link = knownLink ?? (await deps.respondents.linkById(session.link_id));
  const researches = await researchesInOrder(deps, session);
  const media = await deps.respondents.readyMediaOf(researches.map((r) => r.id));
  const segments = await deps.recording.segments(session.id);
  return {
    session_id: session.id,
    status: session.status,
    preview: session.is_preview,
    step: session.step,
    research_index: session.research_index,
    researches: researches.map((r) => researchOf(signing, session.id, r, media, link.language)),
    calibration_seconds: CALIBRATION_SECONDS[link.flow_type],
    use_face_checker: useFaceChecker(link),
    calibration_check: checkRules(researches).enabled,
    screener_first: link.is_screener_first,
    screener: { ran: session.screener_ran },
    analysis: analysisOf(session, deviceAnalysisRules(researches)),
    surveys: await sessionQuestionnaires(deps, session),
    segments: segments.map((s) => ({ segment: s.segment, offset_ms: s.offset_ms, chunks: s.chunks })),
    next_event_seq: await deps.recording.nextEventSeq('session', session.id),
    clock_ms: Math.max(0, Date.now() - new Date(session.started_at).getTime()),
    end: await endOfSession(deps, signing, session, link, researches),
  };
}

// ---------------------------------------------------------------------------------------------
// Recording segments, leaving

/** What may only happen while the session runs and is saved (not a preview). */
export function requireRecording(session: RespondentSessionRow): void {
  if (session.is_preview) throw new AppError('invalid_state', { message: 'respondent.previewNotSaved' });
  if (session.status !== 'started') throw new AppError('invalid_state', { message: 'respondent.sessionEnded' });
}

export async function startSegment(
  deps: RespondentsDeps,
  session: RespondentSessionRow,
  input: z.infer<typeof startSegmentInput>,
): Promise<{ segment: number; offset_ms: number }> {
  requireRecording(session);
  requireSegmentType(session, input.mime_type);
  const result = await deps.recording.startSegment(
    session.id,
    input.mime_type,
    input.screen,
    RESPONDENT_LIMITS.segments,
  );
  if (result === 'ended') throw new AppError('invalid_state', { message: 'respondent.sessionEnded' });
  if (result === 'full') throw new AppError('invalid_state', { message: 'respondent.recordingIncomplete' });
  return result;
}

export async function leaveSession(
  deps: RespondentsDeps,
  signing: Signing,
  session: RespondentSessionRow,
  reason: string,
): Promise<SessionState> {
  await deps.respondents.leave(session.id, reason);
  const current = (await deps.respondents.findSessionById(session.id)) ?? session;
  return sessionState(deps, signing, current);
}

// ---------------------------------------------------------------------------------------------
// Content files for the respondent's browser

/**
 * A research file by its signed URL: the signature and expiry (a forged URL is not found, an
 * expired one forbidden), a running session, and a file of a research in the session's order.
 */
export async function respondentMedia(
  deps: RespondentsDeps,
  signing: Signing,
  mediaId: string,
  query: { s: string; e: number; sig: string },
): Promise<StoredFile> {
  const check = checkMediaUrl(signing.secret, mediaId, query);
  if (check === 'forged') throw new AppError('not_found', { message: 'media.notFound' });
  if (check === 'expired') throw new AppError('forbidden', { message: 'respondent.sessionEnded' });
  const session = await deps.respondents.findSessionById(query.s);
  if (!session) throw new AppError('not_found', { message: 'media.notFound' });
  if (session.status !== 'started') throw new AppError('forbidden', { message: 'respondent.sessionEnded' });
  const file = await deps.respondents.findMedia(mediaId);
  if (file?.status !== 'ready' || !session.research_order.includes(file.campaign_id)) {
    throw new AppError('not_found', { message: 'media.notFound' });
  }
  return storedFile(file.storage_key, Number(file.size), file.mime, file.filename);
}
