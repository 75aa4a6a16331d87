import { accessorLinkOutput } from '@emolens/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Config, ConfigError, loadConfig } from '../config.ts';
import { type Client, createTestApp, loggedIn, type TestApp } from '../test/harness.ts';
import { publicOrigin } from './public-url.ts';

/** A quota link made by `client` with the given extra headers; its respondent URL. */
async function quotaLinkUrl(client: Client, headers: Record<string, string>): Promise<string> {
  const project = await client.draftProject();
  const scenario = await client.request('POST', `/api/cabinet/projects/${project}/scenarios/`, { body: {}, headers });
  expect(scenario.statusCode, scenario.body).toBe(201);
  const created = await client.request('POST', `/api/cabinet/scenarios/${scenario.json().id}/project-accessor-links/`, {
    body: {},
    headers,
  });
  expect(created.statusCode, created.body).toBe(201);
  const link = accessorLinkOutput.parse(created.json());
  // Every answer that carries the link builds it the same way.
  const again = await client.request('GET', `/api/cabinet/project-accessor-links/${link.id}/`, { headers });
  expect(again.json().link).toBe(link.link);
  return link.link;
}

const EVIL = { host: 'evil.example', 'x-forwarded-host': 'evil.example', 'x-forwarded-proto': 'https' };

describe('quota links are built on the configured public address', () => {
  let t: TestApp;
  let alice: Client;
  beforeAll(async () => {
    const { publicUrl, publicUrlSet } = loadConfig({ PUBLIC_URL: 'https://emolens.example.org/' });
    t = await createTestApp({ publicUrl, publicUrlSet, trustProxy: true });
    ({ alice } = await loggedIn(t.app, 'alice'));
  });
  afterAll(() => t.close());

  it('ignores the Host header, and forwarded headers too once PUBLIC_URL is set', async () => {
    const url = await quotaLinkUrl(alice, EVIL);
    expect(url).toMatch(/^https:\/\/emolens\.example\.org\/project-research\/[\w-]{24}$/);
  });
});

describe('behind a trusted proxy without PUBLIC_URL', () => {
  let t: TestApp;
  let alice: Client;
  beforeAll(async () => {
    t = await createTestApp({ trustProxy: true });
    ({ alice } = await loggedIn(t.app, 'alice'));
  });
  afterAll(() => t.close());

  it('uses the origin the proxy forwards', async () => {
    const url = await quotaLinkUrl(alice, {
      host: 'internal:8080',
      'x-forwarded-host': 'research.example.com',
      'x-forwarded-proto': 'https',
    });
    expect(url).toMatch(/^https:\/\/research\.example\.com\/project-research\//);
  });

  it('falls back to the default address when nothing is forwarded, whatever the Host', async () => {
    const url = await quotaLinkUrl(alice, { host: 'evil.example' });
    expect(url).toMatch(new RegExp(`^http://localhost:${t.app.ctx.config.port}/project-research/`));
  });
});

describe('publicOrigin', () => {
  const base: Pick<Config, 'publicUrl' | 'publicUrlSet' | 'trustProxy'> = {
    publicUrl: 'http://localhost:8080',
    publicUrlSet: false,
    trustProxy: false,
  };
  const origin = (config: Partial<typeof base>, headers: Record<string, string | string[]>) =>
    publicOrigin({ ...base, ...config }, { headers });

  it('never takes forwarded headers from an untrusted client', () => {
    expect(origin({}, EVIL)).toBe('http://localhost:8080');
  });

  it('takes the value the nearest proxy set when proxies append', () => {
    const headers = { 'x-forwarded-host': 'evil.example, research.example.com', 'x-forwarded-proto': 'http, https' };
    expect(origin({ trustProxy: true }, headers)).toBe('https://research.example.com');
  });

  it('keeps a port and lower-cases the host', () => {
    expect(origin({ trustProxy: true }, { 'x-forwarded-host': 'Research.Example.com:8443' })).toBe(
      'http://research.example.com:8443',
    );
  });

  it('refuses forwarded hosts that are not bare host names', () => {
    for (const host of ['evil.example/path', 'user@evil.example', 'evil.example?x=1', '', 'a b', 'javascript:x']) {
      expect(origin({ trustProxy: true }, { 'x-forwarded-host': host, 'x-forwarded-proto': 'https' })).toBe(
        'http://localhost:8080',
      );
    }
  });

  it('takes the scheme of PUBLIC_URL when the proxy forwards an unknown one', () => {
    expect(
      origin({ trustProxy: true }, { 'x-forwarded-host': 'research.example.com', 'x-forwarded-proto': 'gopher' }),
    ).toBe('http://research.example.com');
  });
});

describe('PUBLIC_URL', () => {
  it('defaults to localhost on the configured port', () => {
    expect(loadConfig({ PORT: '9000' }).publicUrl).toBe('http://localhost:9000');
    expect(loadConfig({ PORT: '9000' }).publicUrlSet).toBe(false);
  });

  it('is normalised to its origin', () => {
    expect(loadConfig({ PUBLIC_URL: 'HTTPS://Emolens.Example.org/' }).publicUrl).toBe('https://emolens.example.org');
    expect(loadConfig({ PUBLIC_URL: 'http://10.0.0.5:8080' }).publicUrl).toBe('http://10.0.0.5:8080');
  });

  it('refuses anything but a bare http(s) origin', () => {
    for (const value of [
      'emolens.example.org',
      'ftp://emolens.example.org',
      'https://emolens.example.org/app',
      'https://emolens.example.org/?x=1',
      'https://emolens.example.org/#top',
      'https://user:pass@emolens.example.org',
    ]) {
      expect(() => loadConfig({ PUBLIC_URL: value }), value).toThrow(ConfigError);
      expect(() => loadConfig({ PUBLIC_URL: value }), value).toThrow(/PUBLIC_URL/);
    }
  });
});
