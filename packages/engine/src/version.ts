/** Stamped on every result: bump when a change alters the numbers the engine produces. */
export const ENGINE_VERSION = '0.12.0+human-3.3.6-onnx';
