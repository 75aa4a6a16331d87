import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, REPO_ROOT } from './config.ts';

describe('config', () => {
  it('defaults to the embedded database in ./data on port 8080', () => {
    const config = loadConfig({});
    expect(config.port).toBe(8080);
    expect(config.databaseUrl).toBeUndefined();
    expect(config.dataDir).toBe(`${REPO_ROOT}/data`);
  });

  it('reads PORT and DATABASE_URL', () => {
    const config = loadConfig({ PORT: '9000', DATABASE_URL: 'postgres://u@localhost:5432/db' });
    expect(config.port).toBe(9000);
    expect(config.databaseUrl).toBe('postgres://u@localhost:5432/db');
  });

  it('names every invalid variable', () => {
    expect(() => loadConfig({ PORT: 'eighty', LOG_LEVEL: 'loud' })).toThrow(ConfigError);
    expect(() => loadConfig({ PORT: 'eighty', LOG_LEVEL: 'loud' })).toThrow(
      /PORT[\s\S]*LOG_LEVEL|LOG_LEVEL[\s\S]*PORT/,
    );
  });

  it('reads the MTurk return origins and the respondent limits', () => {
    const defaults = loadConfig({});
    expect(defaults.mturkSubmitOrigins).toEqual(['https://www.mturk.com', 'https://workersandbox.mturk.com']);
    expect(defaults.respondentRateLimitPerMinute).toBeGreaterThanOrEqual(60);
    const config = loadConfig({
      MTURK_SUBMIT_ORIGINS: ' https://mturk.example.org/path , http://localhost:9000',
      LINK_SESSIONS_PER_MINUTE: '5',
    });
    expect(config.mturkSubmitOrigins).toEqual(['https://mturk.example.org', 'http://localhost:9000']);
    expect(config.linkSessionsPerMinute).toBe(5);
    expect(() => loadConfig({ MTURK_SUBMIT_ORIGINS: 'not a url' })).toThrow(/MTURK_SUBMIT_ORIGINS/);
  });
});
