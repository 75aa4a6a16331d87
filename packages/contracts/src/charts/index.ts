/**
 * `@emolens/contracts/charts`: the report's curve charts as ECharts options, built from the contracts' types, for the
 * cabinet and the server's files alike. A subpath of its own: ECharts' types stay out of the contracts' main entry.
 */
export * from './curves.ts';
export * from './lines.ts';
export { fittedRange, isSmallN, valueRange } from './series.ts';
export * from './time.ts';
export type { TooltipText } from './tooltip.ts';
