import {
  PANEL_QUERY_KEYS,
  type PanelParams,
  panelParamsSchema,
  type RespondentStep,
  type SessionEnd,
  type SessionState,
  type SurveySlot,
} from '@emolens/contracts';
import type { ClosedReason } from './message-screens.tsx';

/** Where the respondent's journey is (research-journey.ts moves it, research-page.tsx shows it). */
export type Phase =
  | { name: 'loading' }
  | { name: 'closed'; reason: ClosedReason }
  | { name: 'mturk_preview' }
  | { name: 'consent' }
  | { name: 'camera' }
  | { name: 'camera_error'; kind: 'camera' | 'recorder' }
  | { name: 'face_check' }
  /** Privacy mode: the device analyses too slowly; the research offers the video upload instead (decision 065). */
  | { name: 'device_slow' }
  /** The calibration; `attempt` 2 repeats it after a failed check (decision 050). */
  | { name: 'calibration'; attempt: number }
  /** The server checks the calibration just done (its validation dots' error). */
  | { name: 'calibration_check'; attempt: number }
  /** The first check failed: the explanation before the calibration once more. */
  | { name: 'calibration_retry'; attempt: number }
  | { name: 'resume' }
  | { name: 'checkpoint'; next: number }
  | { name: 'content'; index: number }
  /** The screener (then the research `next`, or the rest of the setup when it comes first) or the survey. */
  | { name: 'questionnaire'; slot: SurveySlot; next: number | null }
  | { name: 'save' }
  | {
      name: 'end';
      end: SessionEnd | null;
      preview: boolean;
      calibrationFailed?: boolean;
      /** Privacy mode: stopped because the device analyses too slowly. */
      deviceTooSlow?: boolean;
    };

/** The phases during which the camera records (and its loss stops the journey). */
export const RECORDING: Phase['name'][] = [
  'calibration',
  'calibration_check',
  'calibration_retry',
  'resume',
  'checkpoint',
  'content',
];
/** The phases of a running journey: leaving the page is warned about. */
export const RUNNING: Phase['name'][] = ['camera', 'face_check', 'device_slow', ...RECORDING, 'questionnaire', 'save'];
/** Steps from which the journey resumes with the content (the calibration is done). */
export const CALIBRATED: RespondentStep[] = ['content', 'survey', 'save'];

/** The slot's questionnaire while it still waits for its final answers. */
export const pendingQuestionnaire = (session: SessionState | null, slot: SurveySlot) => {
  const questionnaire = session?.surveys[slot];
  return questionnaire && !questionnaire.done ? questionnaire : null;
};

/** The panel's parameters on the link's query string. */
export function panelFromQuery(search: string): PanelParams {
  const query = new URLSearchParams(search);
  const raw: Record<string, string> = {};
  for (const key of PANEL_QUERY_KEYS) {
    const value = query.get(key);
    if (value !== null) raw[key] = value;
  }
  // Values that are not bounded ids are dropped, not refused: the link still works.
  const parsed: PanelParams = {};
  for (const [key, value] of Object.entries(raw)) {
    const one = panelParamsSchema.safeParse({ [key]: value });
    if (one.success) Object.assign(parsed, one.data);
  }
  return parsed;
}
