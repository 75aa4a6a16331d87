import { readFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import { expect, test } from '@playwright/test';
import { Webhook } from 'standardwebhooks';
import { login, shot } from './support.ts';

/**
 * Webhooks through the cabinet (issue 33, item 3; decision 066): an endpoint made on Cabinet → Webhooks pointing at a
 * receiver this test runs (the e2e server allows private addresses and http), its secret shown once, a test event
 * sent with the button, received signed, and seen in the endpoint's delivery log.
 */
const ROOT = resolve(import.meta.dirname, '../..');
const SHOTS = resolve(ROOT, '.tmp/shots-webhooks');
const LOCALES = resolve(ROOT, 'apps/web/src/i18n/locales');

function text(path: string, lang = 'en'): string {
  let node: unknown = JSON.parse(readFileSync(resolve(LOCALES, `${lang}/integrations.json`), 'utf8'));
  for (const key of path.split('.')) node = (node as Record<string, unknown>)[key];
  if (typeof node !== 'string') throw new Error(`no ${lang}/integrations:${path}`);
  return node;
}

const received: { headers: IncomingHttpHeaders; body: string }[] = [];
let server: Server;
let receiverUrl = '';
test.beforeAll(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  receiverUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/emolens-hooks`;
});
test.afterAll(() => new Promise<void>((r) => server.close(() => r())));

test.use({ actionTimeout: 15_000, viewport: { width: 1280, height: 900 } });

test('a webhook endpoint: made, its secret shown once, a test event delivered signed and logged', async ({ page }) => {
  // Four steps, one of which waits for the worker to take the delivery job and the log to refresh.
  test.setTimeout(120_000);
  const description = `CRM sync ${Date.now().toString(36)}`;
  let secret = '';
  await login(page);

  await test.step('the endpoint is made and its secret shown once', async () => {
    await page.goto('/cabinet/webhooks?curr_lang=en');
    await expect(page.getByRole('heading', { name: text('webhooks.title'), exact: true })).toBeVisible();
    await page.getByTestId('webhook-url').fill(receiverUrl);
    await page.getByTestId('webhook-description').fill(description);
    await page.getByTestId('webhook-create').click();
    const value = page.getByTestId('webhook-secret-value');
    await expect(value).toHaveText(/^whsec_[A-Za-z0-9+/]{32}$/);
    await expect(page.getByText(text('webhooks.secretOnce'))).toBeVisible();
    secret = (await value.textContent())?.trim() ?? '';
    await shot(page, SHOTS, '01-secret-shown-en');
    await page.getByTestId('webhook-secret-close').click();
    await expect(value).toBeHidden();
    const card = page.getByTestId('webhook-endpoint').filter({ hasText: description });
    await expect(card).toBeVisible();
    await expect(card.getByTestId('webhook-endpoint-url')).toHaveText(receiverUrl);
    // Only the secret's prefix is on the page, never the secret.
    await expect(card).toContainText(secret.slice(0, 10));
    await expect(page.getByText(secret)).toHaveCount(0);
    await page.reload();
    await expect(page.getByText(secret)).toHaveCount(0);
  });

  await test.step('a test event is delivered, signed, and shows in the delivery log', async () => {
    const card = page.getByTestId('webhook-endpoint').filter({ hasText: description });
    await card.getByTestId('webhook-test').click();
    await expect(page.getByText(text('webhooks.testSent'))).toBeVisible();
    // The endpoint takes every event of the account: a recording an earlier spec's respondent left may finish
    // processing meanwhile and be delivered too (CI saw `recording.processed` at the top of the log). The test event's
    // row:
    const row = card.getByTestId('webhook-log-row').filter({ hasText: 'webhook.test' });
    await expect(row).toHaveCount(1, { timeout: 30_000 });
    await expect(row.getByTestId('webhook-log-result')).toHaveText('HTTP 204');
    // Every delivery is signed with the endpoint's secret; exactly one is the test event.
    const payloads = received.map(
      (delivery) =>
        new Webhook(secret).verify(delivery.body, {
          'webhook-id': String(delivery.headers['webhook-id']),
          'webhook-timestamp': String(delivery.headers['webhook-timestamp']),
          'webhook-signature': String(delivery.headers['webhook-signature']),
        }) as { type: string },
    );
    expect(payloads.filter((p) => p.type === 'webhook.test')).toHaveLength(1);
    await shot(page, SHOTS, '02-delivery-log-en');
  });

  await test.step('in Russian and at phone width', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto('/cabinet/webhooks?curr_lang=ru');
    await expect(page.getByRole('heading', { name: text('webhooks.title', 'ru'), exact: true })).toBeVisible();
    const card = page.getByTestId('webhook-endpoint').filter({ hasText: description });
    await card.getByTestId('webhook-log-toggle').click();
    await expect(card.getByTestId('webhook-log-row').first()).toBeVisible();
    await shot(page, SHOTS, '03-phone-ru', { fullPage: true });
    await page.setViewportSize({ width: 1280, height: 900 });
    await shot(page, SHOTS, '04-desktop-ru', { fullPage: true });
  });

  await test.step('the endpoint is deleted', async () => {
    const card = page.getByTestId('webhook-endpoint').filter({ hasText: description });
    await card.getByTestId('webhook-delete').click();
    await page.getByTestId('confirm-action').click();
    await expect(card).toHaveCount(0);
  });
});
