export * from './auth.ts';
export * from './campaigns.ts';
export * from './errors.ts';
export * from './languages.ts';
export * from './pricing.ts';
export * from './projects.ts';
export * from './roles.ts';
export * from './scenarios.ts';
