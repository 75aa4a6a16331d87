import type { FaceCheckResult } from '@emolens/engine/browser';
import { useCallback, useRef } from 'react';
import { STEADY_CHECKS } from './face-check.tsx';

/** A face looking straight at the camera for this long passes the face check. */
const FACE_OK_MS = 1200;

/**
 * Logs a face check when what it sees changes; passes once one face looks straight for a moment. The moment
 * counts from when the check shows "ok" (STEADY_CHECKS results in a row), so the respondent sees it, however
 * slowly the check runs on their device.
 */
export function useFaceGate(logResult: (r: FaceCheckResult) => void, onPass: () => void) {
  const last = useRef<string>('');
  const okRun = useRef(0);
  const okSince = useRef<number | null>(null);
  const passed = useRef(false);
  const logRef = useRef(logResult);
  logRef.current = logResult;
  const passRef = useRef(onPass);
  passRef.current = onPass;
  return useCallback((r: FaceCheckResult) => {
    if (passed.current) return;
    const key = `${r.status}:${r.faceCount}`;
    if (key !== last.current) {
      last.current = key;
      logRef.current(r);
    }
    if (r.status !== 'ok') {
      okRun.current = 0;
      okSince.current = null;
      return;
    }
    okRun.current++;
    if (okRun.current >= STEADY_CHECKS) okSince.current ??= performance.now();
    if (okSince.current !== null && performance.now() - okSince.current >= FACE_OK_MS) {
      passed.current = true;
      passRef.current();
    }
  }, []);
}
