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

  it('turns single sign-on on with the issuer and the client, and refuses half or unsafe settings', () => {
    expect(loadConfig({}).sso).toBeUndefined();
    const client = {
      OIDC_ISSUER: 'https://login.acme.example/realms/staff',
      OIDC_CLIENT_ID: 'emolens',
      OIDC_CLIENT_SECRET: 's',
    };
    expect(loadConfig({ ...client, OIDC_ALLOWED_DOMAINS: ' Acme.example, @staff.acme.example ' }).sso).toEqual({
      issuer: 'https://login.acme.example/realms/staff',
      clientId: 'emolens',
      clientSecret: 's',
      allowedDomains: ['acme.example', 'staff.acme.example'],
      createUsers: false,
      newUserRole: 'customer',
      buttonLabel: null,
    });
    expect(loadConfig({ ...client, OIDC_BUTTON_LABEL: 'Sign in with Acme' }).sso?.buttonLabel).toBe(
      'Sign in with Acme',
    );
    expect(() => loadConfig({ OIDC_ISSUER: client.OIDC_ISSUER })).toThrow(/OIDC_CLIENT_ID/);
    // Plain HTTP only to this machine.
    expect(() => loadConfig({ ...client, OIDC_ISSUER: 'http://login.acme.example' })).toThrow(/OIDC_ISSUER/);
    expect(loadConfig({ ...client, OIDC_ISSUER: 'http://127.0.0.1:9000' }).sso?.issuer).toBe('http://127.0.0.1:9000');
    // Accounts made on first sign-in only for named domains; a role of the spec.
    expect(() => loadConfig({ ...client, OIDC_CREATE_USERS: 'true' })).toThrow(/OIDC_ALLOWED_DOMAINS/);
    expect(() => loadConfig({ ...client, OIDC_ALLOWED_DOMAINS: 'not a domain' })).toThrow(/OIDC_ALLOWED_DOMAINS/);
    expect(() => loadConfig({ ...client, OIDC_NEW_USER_ROLE: 'admin' })).toThrow(/OIDC_NEW_USER_ROLE/);
    expect(
      loadConfig({
        ...client,
        OIDC_ALLOWED_DOMAINS: 'acme.example',
        OIDC_CREATE_USERS: 'true',
        OIDC_NEW_USER_ROLE: 'ux_customer',
      }).sso,
    ).toMatchObject({ createUsers: true, newUserRole: 'ux_customer' });
  });
});
