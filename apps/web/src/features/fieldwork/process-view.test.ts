import { describe, expect, it } from 'vitest';
import {
  formatDuration,
  LIVE_PROCESS_INTERVAL,
  processPollInterval,
  processReasonKey,
  respondentLabel,
} from './process-view.ts';

describe('the live process list', () => {
  it('polls every 3 s while any process waits or runs, and stops when none does', () => {
    expect(LIVE_PROCESS_INTERVAL).toBe(3000);
    for (const status of ['collected', 'restarted', 'preprocessing', 'in_process'] as const) {
      expect(processPollInterval([{ status: 'done' }, { status }]), status).toBe(3000);
    }
    expect(processPollInterval([{ status: 'done' }, { status: 'error' }, { status: 'canceled' }])).toBe(false);
    expect(processPollInterval([{ status: 'created' }, { status: 'detection_error' }])).toBe(false);
    expect(processPollInterval([])).toBe(false);
    expect(processPollInterval(undefined)).toBe(false);
  });
});

describe('a process reason', () => {
  const result = (excluded_reason: 'bad_frames' | null) => ({
    engine_version: 'e',
    created_at: '2026-01-01T00:00:00Z',
    recording_seconds: 1,
    frames: 1,
    face_found: true,
    bad_frame_share: 0,
    usable: excluded_reason === null,
    excluded_reason,
    calibration_status: 'not_run' as const,
    calibration_accuracy_px: null,
    calibration_accuracy_percent: null,
    calibration_accuracy_degrees: null,
    calibration_precision_px: null,
    calibration_precision_percent: null,
    calibration_precision_degrees: null,
    drift: null,
    distance_cm: null,
    mean_engagement: null,
  });

  it('names the error first, then the exclusion, as message keys', () => {
    expect(processReasonKey({ error: 'decode_failed', result: result('bad_frames') })).toBe(
      'processing.error.decode_failed',
    );
    expect(processReasonKey({ error: null, result: result('bad_frames') })).toBe('processing.excluded.bad_frames');
    expect(processReasonKey({ error: null, result: result(null) })).toBeNull();
    expect(processReasonKey({ error: null, result: null })).toBeNull();
  });
});

describe('process cells', () => {
  it('formats recording lengths', () => {
    expect(formatDuration(0)).toBe('0:00');
    expect(formatDuration(12.4)).toBe('0:12');
    expect(formatDuration(61)).toBe('1:01');
    expect(formatDuration(3723)).toBe('1:02:03');
  });

  it('shortens a respondent known only by the session id', () => {
    const sid = '0f3c2a1b-1111-4222-8333-444455556666';
    expect(respondentLabel({ respondent: sid, session_id: sid })).toEqual({ text: '0f3c2a1b', isSession: true });
    expect(respondentLabel({ respondent: 'RID-7', session_id: sid })).toEqual({ text: 'RID-7', isSession: false });
  });
});

describe('reason keys', () => {
  it('exist in the message catalogue for every error and exclusion', async () => {
    const { EXCLUDED_REASONS, MESSAGES, PROCESS_ERROR_CODES } = await import('@emolens/contracts');
    for (const error of PROCESS_ERROR_CODES) {
      expect(processReasonKey({ error, result: null }) ?? '', error).toBeOneOf(Object.keys(MESSAGES));
    }
    for (const reason of EXCLUDED_REASONS) {
      const key = processReasonKey({
        error: null,
        result: {
          engine_version: 'e',
          created_at: '',
          recording_seconds: 1,
          frames: 1,
          face_found: false,
          bad_frame_share: 1,
          usable: false,
          excluded_reason: reason,
          calibration_status: 'not_run',
          calibration_accuracy_px: null,
          calibration_accuracy_percent: null,
          calibration_accuracy_degrees: null,
          calibration_precision_px: null,
          calibration_precision_percent: null,
          calibration_precision_degrees: null,
          drift: null,
          distance_cm: null,
          mean_engagement: null,
        },
      });
      expect(key ?? '', reason).toBeOneOf(Object.keys(MESSAGES));
    }
  });
});
