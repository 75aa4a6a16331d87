/**
 * The Human configuration both entries share (the Node analysis and the browser face check): face
 * only, one detector set-up, everything Emolens does not use turned off. Each entry adds where the
 * models and wasm files are and which stages and skipping it wants.
 */
export interface FaceConfigOptions {
  maxFaces: number;
  /** Frames and milliseconds the detector may be skipped for while the picture stays alike. */
  detectorSkip: { skipFrames: number; skipTime: number };
  /** Human's frame comparison that allows skipping; 0 analyses every frame afresh. */
  cacheSensitivity: number;
  mesh: object;
  iris: object;
  emotion: object;
}

export function faceConfig(o: FaceConfigOptions) {
  return {
    debug: false,
    async: true,
    warmup: 'none' as const,
    cacheSensitivity: o.cacheSensitivity,
    filter: { enabled: false },
    face: {
      enabled: true,
      detector: {
        rotation: true,
        maxDetected: o.maxFaces,
        minConfidence: 0.5,
        iouThreshold: 0.1,
        return: false,
        ...o.detectorSkip,
      },
      mesh: o.mesh,
      iris: o.iris,
      emotion: o.emotion,
      description: { enabled: false },
      antispoof: { enabled: false },
      liveness: { enabled: false },
      attention: { enabled: false },
    },
    body: { enabled: false },
    hand: { enabled: false },
    object: { enabled: false },
    gesture: { enabled: false },
    segmentation: { enabled: false },
  };
}
