import {
  type AnalysisRate,
  DEFAULT_ANALYSIS_RATE,
  minDeviceFramesPerSecond,
  READINGS_MIME_TYPE,
  type RespondentAnalysis,
  type SlowDeviceAction,
  storedResearchSettings,
} from '@emolens/contracts';
import { decodeReadings, EngineError, READINGS_MAX_CHUNK_BYTES } from '@emolens/engine';
import type { ResearchRow, RespondentSessionRow } from '../../db/types.ts';
import { AppError } from '../../http/errors.ts';
import { startsVideo } from '../recording/recording-log.ts';

/** Privacy mode's rules of a session (issue 32; decision 064): where its analysis runs, and what its recording is. */

export interface DeviceAnalysisRules {
  /** A research of the session keeps the video on the device: the whole session does (one recording serves all). */
  onDevice: boolean;
  /** `stop` when any of those researches says so (the stricter promise), else `offer_upload`. */
  slowDeviceAction: SlowDeviceAction;
  /**
   * The rate a device reads full frames at: the highest analysis rate (`contentVideoFps`) of all the session's
   * researches, as one recording serves them all.
   */
  fps: AnalysisRate;
  /** The device check's threshold at that rate (`minDeviceFramesPerSecond`). */
  minFramesPerSecond: number;
}

export function deviceAnalysisRules(researches: Pick<ResearchRow, 'settings'>[]): DeviceAnalysisRules {
  const all = researches.map((r) => storedResearchSettings(r.settings));
  const settings = all.filter((s) => s.videoOnDevice);
  const fps = all.reduce<AnalysisRate>(
    (max, s) => (s.contentVideoFps > max ? s.contentVideoFps : max),
    DEFAULT_ANALYSIS_RATE,
  );
  return {
    onDevice: settings.length > 0,
    slowDeviceAction:
      settings.length && settings.every((s) => s.slowDeviceAction === 'offer_upload') ? 'offer_upload' : 'stop',
    fps,
    minFramesPerSecond: minDeviceFramesPerSecond(fps),
  };
}

/** What the page is told of its session's analysis. */
export function analysisOf(session: RespondentSessionRow, rules: DeviceAnalysisRules): RespondentAnalysis {
  return {
    onDevice: rules.onDevice,
    slowDeviceAction: rules.slowDeviceAction,
    fps: rules.fps,
    minFramesPerSecond: rules.minFramesPerSecond,
    site: session.analysis_site,
  };
}

// ---------------------------------------------------------------------------------------------
// What the recording of a session is: video to the server, or readings from the device

/** A segment of the session's site: readings on the device, video on the server; none while undecided. */
export function requireSegmentType(session: RespondentSessionRow, mimeType: string): void {
  if (session.analysis_site === 'undecided') {
    throw new AppError('invalid_state', { message: 'respondent.analysisSiteUndecided' });
  }
  const readings = mimeType === READINGS_MIME_TYPE;
  if (session.analysis_site === 'device' && !readings) {
    throw new AppError('invalid_state', { message: 'respondent.videoNotExpected' });
  }
  if (session.analysis_site === 'server' && readings) {
    throw new AppError('invalid_state', { message: 'respondent.readingsNotExpected' });
  }
}

/** The readings codec's magic ("EMLR"): a readings chunk sent into a video segment is told by it. */
const READINGS_MAGIC = Buffer.from('EMLR', 'latin1');

/**
 * A chunk of the session's recording is of its site's type: a device session's are readings that decode (at most
 * `READINGS_MAX_CHUNK_BYTES`), a video session's video (its segment's first chunk starts the segment's type, and no
 * chunk is readings).
 */
export async function admitChunk(
  session: RespondentSessionRow,
  mimeType: string,
  index: number,
  body: Buffer,
): Promise<void> {
  if (mimeType === READINGS_MIME_TYPE) {
    if (session.analysis_site !== 'device') {
      throw new AppError('unsupported_media_type', { message: 'respondent.readingsNotExpected' });
    }
    if (body.length > READINGS_MAX_CHUNK_BYTES) {
      throw new AppError('payload_too_large', { message: 'respondent.chunkTooLarge' });
    }
    try {
      await decodeReadings(new Uint8Array(body.buffer, body.byteOffset, body.length));
    } catch (err) {
      if (err instanceof EngineError) {
        throw new AppError('unsupported_media_type', { message: 'respondent.chunkNotReadings' });
      }
      throw err;
    }
    return;
  }
  if (session.analysis_site === 'device') {
    throw new AppError('unsupported_media_type', { message: 'respondent.videoNotExpected' });
  }
  if (body.subarray(0, READINGS_MAGIC.length).equals(READINGS_MAGIC)) {
    throw new AppError('unsupported_media_type', { message: 'respondent.readingsNotExpected' });
  }
  if (index === 0 && !startsVideo(mimeType, body)) {
    throw new AppError('unsupported_media_type', { message: 'respondent.chunkNotVideo' });
  }
}
