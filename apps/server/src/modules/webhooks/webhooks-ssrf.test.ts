import { WEBHOOK_EVENT_TYPES } from '@emolens/contracts';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type Client, loggedIn } from '../../test/harness.ts';
import { appPerFile } from '../../test/per-file.ts';
import { webhookReceiver } from '../../test/webhook-receiver.ts';
import { isInternalAddress } from './address-guard.ts';
import { sendWebhook } from './sender.ts';

/**
 * Where webhooks may go (decision 066): no private, loopback, link-local or otherwise internal address, checked when
 * the endpoint is saved and again at every send (the host resolved, each address checked, no redirect followed); an
 * answer's body read only so far; a receiver that does not answer times out.
 */
const t = appPerFile({
  webhooks: {
    allowPrivateAddresses: false,
    allowHttp: false,
    timeoutMs: 1000,
    retryDelaysMs: [100],
    disableAfterMs: 3_600_000,
    logRetentionMs: 30 * 86_400_000,
  },
});
let receiver: Awaited<ReturnType<typeof webhookReceiver>>;
let alice: Client;

beforeAll(async () => {
  receiver = await webhookReceiver();
});
afterAll(() => receiver.close());
beforeEach(async () => {
  receiver.received.length = 0;
  receiver.answerWith((_req, res) => res.writeHead(204).end());
  ({ alice } = await loggedIn(t.app, 'alice'));
});

const refused = { allowPrivateAddresses: false, allowHttp: true, timeoutMs: 1000 };
const allowed = { allowPrivateAddresses: true, allowHttp: true, timeoutMs: 1000 };

describe('internal addresses', () => {
  it('are told from public ones', () => {
    for (const address of [
      '127.0.0.1',
      '127.1.2.3',
      '10.0.0.1',
      '172.16.5.4',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
      '224.0.0.1',
      '255.255.255.255',
      '::1',
      '::',
      'fe80::1',
      'fd00::1',
      '::ffff:127.0.0.1',
      '::ffff:10.0.0.1',
      '64:ff9b::a00:1',
      'not an address',
    ]) {
      expect(isInternalAddress(address), address).toBe(true);
    }
    for (const address of ['8.8.8.8', '93.184.216.34', '1.1.1.1', '2606:4700:4700::1111', '2a00:1450:4001::200e']) {
      expect(isInternalAddress(address), address).toBe(false);
    }
  });

  it('are refused when an endpoint is saved, by address or by a name resolving to one', async () => {
    const post = (url: string) =>
      alice.request('POST', '/api/users/webhooks/endpoints/', { body: { url, event_types: [...WEBHOOK_EVENT_TYPES] } });
    for (const url of [
      'https://127.0.0.1/hook',
      'https://10.1.2.3/hook',
      'https://[::1]/hook',
      'https://169.254.169.254/latest/meta-data/',
      'https://localhost:8443/hook',
      `https://127.0.0.1:${receiver.port}/hook`,
    ]) {
      const res = await post(url);
      expect(res.statusCode, url).toBe(400);
      expect(res.json().field_keys.url.key, url).toBe('webhook.addressNotAllowed');
    }
    const plain = await post('http://example.org/hook');
    expect(plain.statusCode).toBe(400);
    expect(plain.json().field_keys.url.key).toBe('webhook.httpsRequired');
    const unknown = await post('https://no-such-host.invalid/hook');
    expect(unknown.json().field_keys.url.key).toBe('webhook.hostUnresolved');
    expect((await alice.request('GET', '/api/users/webhooks/endpoints/')).json().items).toEqual([]);
  });

  it('are refused at send time, before anything reaches them', async () => {
    for (const url of [
      receiver.url(),
      `http://localhost:${receiver.port}/hook`,
      `http://[::1]:${receiver.port}/hook`,
    ]) {
      const result = await sendWebhook(url, {}, '{}', refused);
      expect(result, url).toMatchObject({ statusCode: null, error: 'address_not_allowed' });
    }
    expect(receiver.received).toEqual([]);
    // Plain http is refused unless allowed.
    expect((await sendWebhook(receiver.url(), {}, '{}', { ...allowed, allowHttp: false })).error).toBe(
      'address_not_allowed',
    );
    expect(await sendWebhook(receiver.url(), {}, '{}', allowed)).toMatchObject({ statusCode: 204, error: null });
    expect(receiver.received).toHaveLength(1);
  });
});

describe('a send', () => {
  it('does not follow a redirect', async () => {
    receiver.answerWith((req, res) => {
      if (req.path === '/hook') res.writeHead(302, { location: '/elsewhere' }).end();
      else res.writeHead(200).end();
    });
    expect(await sendWebhook(receiver.url(), {}, '{}', allowed)).toMatchObject({
      statusCode: 302,
      error: 'http_status',
    });
    expect(receiver.received.map((r) => r.path)).toEqual(['/hook']);
  });

  it('times out on a receiver that does not answer', async () => {
    receiver.answerWith(() => undefined);
    const result = await sendWebhook(receiver.url(), {}, '{}', { ...allowed, timeoutMs: 300 });
    expect(result).toMatchObject({ statusCode: null, error: 'timeout' });
    expect(result.durationMs).toBeGreaterThanOrEqual(290);
  });

  it('reads only the start of an endless answer', async () => {
    let timer: NodeJS.Timeout | undefined;
    receiver.answerWith((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      const chunk = Buffer.alloc(64 * 1024, 'x');
      timer = setInterval(() => res.write(chunk), 5);
      res.on('close', () => clearInterval(timer));
    });
    const result = await sendWebhook(receiver.url(), {}, '{}', { ...allowed, timeoutMs: 2000 });
    clearInterval(timer);
    expect(result).toMatchObject({ statusCode: 200, error: null });
    expect(result.durationMs).toBeLessThan(2000);
  });
});
