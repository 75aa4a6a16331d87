import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { expect, type Page, test } from '@playwright/test';
import { astronautVideo, launchedProject, login, shot } from './support.ts';

const SHOTS = resolve(import.meta.dirname, '../../.tmp/shots-fieldwork');
const CONSENT_POLICY_VERSION = '2026-11-23';

test.use({ viewport: { width: 1440, height: 900 }, actionTimeout: 15_000 });

/**
 * One respondent through the public /r API, as the respondent page drives it: consent, one
 * recording segment of a real WebM, the event log, complete. The short completion code it is given to copy, and
 * the signed token beside it.
 */
async function completeRespondent(
  page: Page,
  token: string,
  participant: string,
): Promise<{ code: string; signed: string }> {
  const screen = { width: 1440, height: 900, device_pixel_ratio: 1 };
  const started = await page.request.post(`/r/links/${token}/sessions`, {
    data: {
      consent: { accepted: true, policy_version: CONSENT_POLICY_VERSION, language: 'en' },
      panel: { participant_id: participant },
      screen,
    },
  });
  expect(started.status(), await started.text()).toBe(201);
  const { secret, session } = (await started.json()) as { secret: string; session: { session_id: string } };
  const id = session.session_id;
  const headers = { authorization: `Bearer ${secret}` };

  const segment = await page.request.post(`/r/sessions/${id}/segments`, {
    headers,
    data: { mime_type: 'video/webm', screen },
  });
  expect(segment.status(), await segment.text()).toBeLessThan(300);
  const bytes = readFileSync(astronautVideo(resolve(SHOTS, 'media')));
  const chunk = await page.request.put(`/r/sessions/${id}/segments/0/chunks/0`, {
    headers: {
      ...headers,
      'content-type': 'application/octet-stream',
      'x-chunk-sha256': createHash('sha256').update(bytes).digest('hex'),
    },
    data: bytes,
  });
  expect(chunk.status(), await chunk.text()).toBeLessThan(300);

  const researches = ((await started.json()) as { session: { researches: { campaign_id: string }[] } }).session
    .researches;
  const journey: unknown[] = [
    { type: 'segment_start', t: 0, segment: 0 },
    { type: 'step', t: 10, step: 'calibration' },
    { type: 'calibration_start', t: 20 },
    { type: 'calibration_dot', t: 30, x: 100, y: 100 },
    { type: 'calibration_end', t: 40 },
    { type: 'step', t: 50, step: 'content' },
  ];
  for (const [index, r] of researches.entries()) {
    journey.push({ type: 'research_start', t: 60 + index * 2, campaign_id: r.campaign_id, index });
    journey.push({ type: 'research_end', t: 61 + index * 2, campaign_id: r.campaign_id });
  }
  const events = await page.request.post(`/r/sessions/${id}/events`, { headers, data: { seq: 0, events: journey } });
  expect(events.status(), await events.text()).toBeLessThan(300);

  const completed = await page.request.post(`/r/sessions/${id}/complete`, {
    headers,
    data: { segments: [{ segment: 0, chunks: 1 }], event_batches: 1 },
  });
  expect(completed.status(), await completed.text()).toBeLessThan(300);
  const body = (await completed.json()) as { code: string | null; token: string | null };
  expect(body.code, 'a short completion code to copy').toMatch(/^[2-9A-HJKMNP-Z]{7}-[2-9A-HJKMNP-Z]{7}$/);
  expect(body.token?.split('.'), 'the signed token beside it').toHaveLength(3);
  return { code: body.code as string, signed: body.token as string };
}

/** The code with one character of its payload changed: the signature no longer matches. */
function forge(code: string): string {
  const [head, payload = '', signature] = code.split('.');
  const i = Math.floor(payload.length / 2);
  return [head, payload.slice(0, i) + (payload[i] === 'A' ? 'B' : 'A') + payload.slice(i + 1), signature].join('.');
}

test('fieldwork of a launched project: the panel, the public quota page and the code check', async ({ page }) => {
  test.setTimeout(150_000);
  const suffix = Date.now().toString(36);
  await login(page);
  const { projectId, researchId, token } = await launchedProject(page, `Fieldwork ${suffix}`);
  const participant = `worker-${suffix}`;
  const { code, signed } = await completeRespondent(page, token, participant);

  await test.step("the project page's fieldwork panel counts the respondent and plays the recording", async () => {
    await page.goto(`/cabinet/projects/${projectId}?curr_lang=en`);
    const panel = page.getByTestId('fieldwork-panel');
    await expect(panel).toContainText('Fieldwork');
    const total = panel.getByTestId('quota-total');
    // Completed, its slot held while the recording waits for processing.
    await expect(total.locator('[data-col="quota"]')).toHaveText('5');
    await expect(total.locator('[data-col="pending"]')).toHaveText('1');
    await expect(total.locator('[data-col="in_progress"]')).toHaveText('0');
    const row = panel.getByTestId('session-row');
    await expect(row).toHaveCount(1);
    await expect(row).toContainText(participant);
    await expect(row.getByTestId('session-status')).toHaveText('Completed');
    await row.getByTestId('session-play').click();
    const video = row.getByTestId('session-video');
    await expect(video).toBeVisible();
    // The browser reads the concatenated chunks as a video: its length is known.
    await expect.poll(() => video.evaluate((v: HTMLVideoElement) => v.readyState)).toBeGreaterThanOrEqual(1);
    await expect(panel.getByTestId('public-quota-link')).toHaveAttribute('href', `/quote/${projectId}`);
    await panel.evaluate((element) => element.scrollIntoView({ block: 'start' }));
    await shot(page, SHOTS, 'panel-en-desktop');
  });

  await test.step('the public quota page shows the same numbers without a login, and not-found for an unknown id', async () => {
    const visitor = await page.context().browser()?.newPage();
    if (!visitor) throw new Error('no browser');
    await visitor.goto(`/quote/${projectId}?curr_lang=en`);
    const total = visitor.getByTestId('quota-total');
    await expect(total.locator('[data-col="pending"]')).toHaveText('1');
    await expect(visitor.getByTestId('quota-page')).not.toContainText(participant);
    await shot(visitor, SHOTS, 'quote-en-desktop');
    await visitor.setViewportSize({ width: 390, height: 844 });
    await visitor.goto(`/quote/${projectId}?curr_lang=ru`);
    await expect(visitor.getByTestId('quota-page')).toContainText('Статистика квот');
    await shot(visitor, SHOTS, 'quote-ru-phone');
    await visitor.goto('/quote/00000000-0000-4000-8000-000000000000?curr_lang=en');
    await expect(visitor.getByTestId('quota-not-found')).toContainText('Project not found');
    await visitor.close();
  });

  await test.step('the code check: the short code and the signed token valid, a forged token forged; a CSV', async () => {
    await page.goto('/cabinet/check-token?curr_lang=en');
    await page.getByTestId('check-token-input').fill(`${code}\n${signed}\n${forge(signed)}`);
    await page.getByTestId('check-token-submit').click();
    const rows = page.getByTestId('check-token-row');
    await expect(rows).toHaveCount(3);
    for (const i of [0, 1]) {
      await expect(rows.nth(i)).toHaveAttribute('data-result', 'valid');
      await expect(rows.nth(i)).toContainText(`Fieldwork ${suffix}`);
      await expect(rows.nth(i)).toContainText(participant);
      await expect(rows.nth(i)).toContainText('Completed');
    }
    await expect(rows.nth(2)).toHaveAttribute('data-result', 'forged');
    await expect(rows.nth(2)).toContainText('Forged');
    await expect(page.getByTestId('check-token-summary')).toHaveText('Valid: 2 of 3');
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('check-token-csv').click()]);
    expect(download.suggestedFilename()).toMatch(/^completion-codes-\d{4}-\d{2}-\d{2}\.csv$/);
    const csv = readFileSync((await download.path()) ?? '', 'utf8');
    const lines = csv
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    expect(lines).toHaveLength(4);
    expect(lines[1]).toContain(`"${code}","Valid","Fieldwork ${suffix}"`);
    expect(lines[2]).toContain(`"${signed}","Valid","Fieldwork ${suffix}"`);
    expect(lines[3]).toContain('"Forged"');
    await shot(page, SHOTS, 'check-token-en-desktop');
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto('/cabinet/check-token?curr_lang=ru');
    await page.getByTestId('check-token-input').fill(`${code}\n${signed}\n${forge(signed)}`);
    await page.getByTestId('check-token-submit').click();
    await expect(page.getByTestId('check-token-summary')).toHaveText('Действительных: 2 из 3');
    await shot(page, SHOTS, 'check-token-ru-phone');
  });

  await test.step("the research's statistics: its video process, the Cint file and its session", async () => {
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.goto(`/cabinet/campaign/${researchId}/statistic?curr_lang=en`);
    const processes = page.getByTestId('processes-panel');
    await expect(processes.getByTestId('processes-total')).toContainText('Recordings');
    await expect(processes.getByTestId('processes-total')).toContainText('1');
    const row = processes.getByTestId('process-row');
    await expect(row).toHaveCount(1);
    await expect(row).toContainText(participant);
    // The worker in the same process may already be at it: any state of spec section 4, translated.
    await expect(row.getByTestId('process-status')).toHaveText(
      /^(Collected|Preprocessing|Processing|Done|Error|Detection error|Restarted)$/,
    );
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('cint-download').click()]);
    expect(download.suggestedFilename()).toMatch(/ - Cint\.csv$/);
    const csv = readFileSync((await download.path()) ?? '', 'utf8');
    expect(csv.startsWith('\uFEFF"RID","session_id","status"')).toBe(true);
    expect(csv).toContain(`"${participant}"`);
    await expect(page.getByTestId('sessions-list').getByTestId('session-row')).toContainText(participant);
    await shot(page, SHOTS, 'statistic-en-desktop');
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`/cabinet/campaign/${researchId}/statistic?curr_lang=ru`);
    await expect(page.getByTestId('processes-total')).toContainText('Всего');
    await expect(page.getByTestId('process-card')).toHaveCount(1);
    await expect(page.getByTestId('process-card')).toContainText(participant);
    await shot(page, SHOTS, 'statistic-ru-phone');
  });

  await test.step('phone and Russian: the panel', async () => {
    await page.goto(`/cabinet/projects/${projectId}?curr_lang=ru`);
    const panel = page.getByTestId('fieldwork-panel');
    await expect(panel).toContainText('Полевой этап');
    await panel.evaluate((element) => element.scrollIntoView({ block: 'start' }));
    await shot(page, SHOTS, 'panel-ru-phone');
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.goto(`/cabinet/projects/${projectId}?curr_lang=en`);
  });
});
