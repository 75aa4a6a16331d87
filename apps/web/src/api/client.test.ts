import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { apiRequest, dispositionFilename } from './client.ts';

describe('the file name of a download', () => {
  it("is the exact name of RFC 8187 filename*, else the plain one, as the server's contentDisposition writes them", () => {
    expect(
      dispositionFilename(
        `attachment; filename="_____ - survey.xlsx"; filename*=UTF-8''%D0%90%D0%BD%D0%BA%D0%B5%D1%82%D0%B0%20-%20survey.xlsx`,
      ),
    ).toBe('Анкета - survey.xlsx');
    expect(dispositionFilename('attachment; filename="answers.csv"')).toBe('answers.csv');
    // A malformed escape falls back to the plain name; no header, no name.
    expect(dispositionFilename(`attachment; filename="a.csv"; filename*=UTF-8''%E0%A4%A`)).toBe('a.csv');
    expect(dispositionFilename(null)).toBeUndefined();
  });
});

describe('the report builder API', () => {
  /** A stub of the network: the user data hands out tokens t1, t2, …; the builder answers `statuses` in turn. */
  function network(statuses: number[]) {
    const calls: { url: string; authorization: string | undefined; credentials: string | undefined }[] = [];
    let issued = 0;
    vi.stubGlobal('document', { visibilityState: 'visible', cookie: '' });
    vi.stubGlobal('fetch', async (url: string, init: RequestInit) => {
      const authorization = (init.headers as Record<string, string>).authorization;
      calls.push({ url, authorization, credentials: init.credentials });
      if (url === '/api/users/user-data/') {
        issued++;
        const user = {
          role: 'customer',
          username: 'alice',
          auth_token: `t${issued}`,
          first_name: '',
          last_name: '',
          public_user_id: 'P1',
          current_lang: 'en',
          is_armi_user: false,
        };
        return new Response(JSON.stringify(user), { status: 200 });
      }
      const status = statuses.shift() ?? 500;
      return new Response(JSON.stringify(status === 200 ? [] : { code: 'unauthorized', message: 'no' }), { status });
    });
    return calls;
  }
  afterEach(() => vi.unstubAllGlobals());

  it('sends the session’s token, and on a 401 or 403 fetches a fresh one and tries exactly once more', async () => {
    const calls = network([401, 200]);
    await expect(apiRequest('GET', '/campaigns/', z.array(z.unknown()), undefined, 'builder')).resolves.toEqual([]);
    expect(calls.map((c) => [c.url, c.authorization])).toEqual([
      ['/api/users/user-data/', undefined],
      ['/report_builder/api/campaigns/', 'Token t1'],
      ['/api/users/user-data/', undefined],
      ['/report_builder/api/campaigns/', 'Token t2'],
    ]);
    // No cookie goes to the token API.
    expect(calls[1]?.credentials).toBe('omit');

    // The token is kept; refused twice, the second refusal is the answer.
    const again = network([403, 403]);
    await expect(apiRequest('GET', '/campaigns/', z.array(z.unknown()), undefined, 'builder')).rejects.toMatchObject({
      status: 403,
    });
    expect(again.map((c) => c.url)).toEqual([
      '/report_builder/api/campaigns/',
      '/api/users/user-data/',
      '/report_builder/api/campaigns/',
    ]);
  });

  it('shares one fetch of the token between calls made together', async () => {
    const calls = network([401, 401, 200, 200]);
    const list = z.array(z.unknown());
    await Promise.all([
      apiRequest('GET', '/campaigns/', list, undefined, 'builder'),
      apiRequest('GET', '/campaigns/', list, undefined, 'builder'),
    ]);
    // The kept token refused twice: one fresh token for both retries.
    expect(calls.filter((c) => c.url === '/api/users/user-data/')).toHaveLength(1);
    expect(calls.filter((c) => c.url.startsWith('/report_builder/'))).toHaveLength(4);
  });
});
