import { expect } from '@playwright/test';
import { respondentText, TMP, test } from './respondent-support.ts';
import { shot } from './support.ts';

const SHOTS = `${TMP}/shots-dot-test`;
const en = (path: string): string => respondentText(`dotTest.${path}`);

test.describe('the setup check (/dot-test)', () => {
  test('consent, face check, calibration, upload, processing, the result only this browser sees, retry', async ({
    respondent: page,
    respondentContext,
  }) => {
    test.setTimeout(90_000);
    const sent = { chunks: 0, events: [] as { type: string; t: number }[] };
    page.on('response', (response) => {
      const path = new URL(response.url()).pathname;
      if (!response.ok()) return;
      if (/^\/r\/dot-tests\/[^/]+\/chunks\/\d+$/.test(path)) sent.chunks++;
      if (/^\/r\/dot-tests\/[^/]+\/events$/.test(path)) {
        sent.events.push(...(response.request().postDataJSON() as { events: { type: string; t: number }[] }).events);
      }
    });

    await page.goto('/dot-test?curr_lang=en');
    const intro = page.getByTestId('dot-test-intro');
    await expect(intro).toContainText(en('title'));
    // The consent names what is recorded and when it is deleted; nothing starts without it.
    await expect(intro).toContainText(en('consent').replace('{{days}}', '7'));
    await expect(intro).toContainText('(no sound)');
    await expect(intro).toContainText('deleted automatically after 7 days');
    await expect(page.getByTestId('dot-test-start')).toBeDisabled();
    await shot(page, SHOTS, 'intro-en-1280');
    await page.getByTestId('dot-test-consent').check();
    await page.getByTestId('dot-test-start').click();

    await expect(page.getByTestId('face-check-step')).toBeVisible();
    await expect(page.getByTestId('face-check-status')).toHaveAttribute('data-status', 'ok', { timeout: 30_000 });
    await page.getByTestId('calibration-start').click();
    await expect(page.getByTestId('calibration-moving')).toBeVisible({ timeout: 5000 });
    await expect(page.getByTestId('calibration-validation')).toBeVisible({ timeout: 20_000 });

    await expect(page.getByTestId('dot-test-processing').or(page.getByTestId('dot-test-result'))).toBeVisible({
      timeout: 15_000,
    });
    const saved = await page.evaluate(() => JSON.parse(localStorage.getItem('emolens.dotTest') ?? 'null'));
    expect(saved).toEqual({ id: expect.any(String), secret: expect.stringMatching(/^[\w-]{43}$/) });
    // The journey's event names, on the recording's clock from 0, never going back.
    const types = new Set(sent.events.map((e) => e.type));
    for (const type of ['screen', 'calibration_start', 'calibration_dot', 'calibration_end', 'validation_dot']) {
      expect(types, type).toContain(type);
    }
    expect(types).toContain('validation_end');
    expect(sent.events.filter((e) => e.type === 'validation_dot')).toHaveLength(5);
    const times = sent.events.map((e) => e.t);
    expect(times).toEqual([...times].sort((a, b) => a - b));
    expect(sent.chunks).toBeGreaterThanOrEqual(10);

    const result = page.getByTestId('dot-test-result');
    await expect(result).toBeVisible({ timeout: 45_000 });
    // The astronaut is a still photo: the eyes never follow the dot, so the verdict is poor, said plainly.
    await expect(page.getByTestId('dot-test-verdict')).toHaveText(en('verdict.poor'));
    await expect(page.getByTestId('dot-test-verdict-text')).toHaveText(en('verdictText.poor'));
    await expect(page.getByTestId('dot-test-thresholds')).toHaveText(
      'Good: mean error up to 5% of the screen diagonal. Fair: up to 10%. Poor: more, or the calibration failed.',
    );
    await expect(page.getByTestId('dot-test-drawing')).toBeVisible();
    await shot(page, SHOTS, 'result-en-1280');

    // A reload shows the result again (the secret is kept); another browser sees only the start.
    await page.reload();
    await expect(page.getByTestId('dot-test-result')).toBeVisible();
    const stranger = await respondentContext.browser()?.newContext();
    if (!stranger) throw new Error('no browser');
    const other = await stranger.newPage();
    await other.goto(`${new URL(page.url()).origin}/dot-test?curr_lang=en`);
    await expect(other.getByTestId('dot-test-intro')).toBeVisible();
    const peek = await other.evaluate(async (id) => (await fetch(`/r/dot-tests/${id}`)).status, saved.id);
    expect(peek).toBe(404);
    await stranger.close();

    // Retry: the old check is deleted, the consent is asked again.
    await page.getByTestId('dot-test-retry').click();
    await expect(page.getByTestId('dot-test-intro')).toBeVisible();
    await expect(page.getByTestId('dot-test-start')).toBeDisabled();
    await expect
      .poll(() =>
        page.evaluate(
          async ({ id, secret }) =>
            (await fetch(`/r/dot-tests/${id}`, { headers: { authorization: `Bearer ${secret}` } })).status,
          saved,
        ),
      )
      .toBe(404);
  });
});
