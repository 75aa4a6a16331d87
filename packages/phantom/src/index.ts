// Phantom respondents: webcam recordings made from real face photos with a known truth for every frame.
export * from './generate.ts';
export * from './render.ts';
export * from './script.ts';
export * from './scripts.ts';
export * from './source.ts';
export * from './truth.ts';
// For scripts that play a page's logged dots (the demo project's respondents, decision 034).
export { gazeItems } from './validation/to-script.ts';
