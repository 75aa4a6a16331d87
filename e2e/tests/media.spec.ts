import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { expect, test } from '@playwright/test';
import { astronautVideo, createResearch, login, shot } from './support.ts';

const TMP = resolve(import.meta.dirname, '../../.tmp');
const SHOTS = resolve(TMP, 'shots-media');
const FILES = resolve(TMP, 'media-e2e');

test.use({ viewport: { width: 1440, height: 900 }, actionTimeout: 15_000 });

/**
 * A real 2-second WebM (320 px wide, 10 fps), a text file named as an MP4, an MP4 header followed by
 * noise, and an MP4 whose index is whole but whose pictures are cut off (it probes, it does not play).
 */
function makeFiles(): { video: string; fake: string; forged: string; broken: string } {
  const video = astronautVideo(FILES);
  const fake = resolve(FILES, 'notes.mp4');
  writeFileSync(fake, 'These are plain text notes, not a video.\n');
  const indexed = resolve(FILES, 'indexed.mp4');
  execFileSync('ffmpeg', [
    '-y',
    '-loglevel',
    'error',
    '-i',
    video,
    '-c:v',
    'libx264',
    '-movflags',
    '+faststart',
    indexed,
  ]);
  const whole = readFileSync(indexed);
  const forged = resolve(FILES, 'forged.mp4');
  writeFileSync(forged, Buffer.concat([whole.subarray(0, 32), Buffer.alloc(20_000, 0x5a)]));
  const broken = resolve(FILES, 'broken.mp4');
  writeFileSync(broken, whole.subarray(0, whole.indexOf(Buffer.from('mdat')) + 64));
  return { video, fake, forged, broken };
}

test('a video is uploaded to a draft research, processed and listed; a fake video is refused', async ({ page }) => {
  test.setTimeout(120_000);
  const files = makeFiles();
  await login(page);
  const researchId = await createResearch(page, 'video', { host: 'Media host', title: 'Astronaut spot' });

  await page.goto(`/cabinet/campaign/${researchId}/form`);
  const section = page.getByTestId('media-section');
  await expect(section.getByTestId('media-empty')).toContainText('No files yet');
  await expect(page.getByTestId('campaign-content-note')).toHaveCount(0);

  await test.step('the video uploads to 100 % and becomes ready with its duration', async () => {
    await page.getByTestId('media-input').setInputFiles(files.video);
    const progress = page.getByTestId('media-upload');
    await expect(progress.getByTestId('media-upload-percent')).toHaveText('100%');
    await expect(progress.getByTestId('media-upload-bytes')).toContainText('MB');
    const item = section.getByTestId('media-item');
    await expect(item).toHaveCount(1);
    await expect(item.getByTestId('media-name')).toHaveText('astronaut.webm');
    await expect(item.getByTestId('media-status')).toHaveText('Ready', { timeout: 30_000 });
    await expect(item).toHaveAttribute('data-status', 'ready');
    await expect(item.getByTestId('media-meta')).toContainText('Video');
    await expect(item.getByTestId('media-meta')).toContainText(/\b2(\.\d)? s\b/);
    await expect(item.getByTestId('media-meta')).toContainText('320×');
    await expect(item.getByTestId('media-poster')).toBeVisible();
    await shot(page, SHOTS, '01-uploaded');
  });

  await test.step('a text file named .mp4 is refused as an invalid format', async () => {
    await page.getByTestId('media-input').setInputFiles(files.fake);
    await expect(page.getByTestId('media-error')).toHaveText('Invalid file format');
    await expect(page.locator('.mantine-Notification-root').filter({ hasText: 'Invalid file format' })).toBeVisible();
    await expect(section.getByTestId('media-item')).toHaveCount(1);
    await shot(page, SHOTS, '02-invalid-format', { closeNotifications: false });
  });

  await test.step('a file with another extension is refused before anything is sent', async () => {
    const text = resolve(FILES, 'notes.txt');
    writeFileSync(text, 'plain text\n');
    await page.getByTestId('media-input').setInputFiles(text);
    await expect(page.getByTestId('media-error')).toHaveText('Invalid file format');
  });

  await test.step('the file is deleted after a confirmation', async () => {
    await section.getByTestId('media-delete').click();
    await expect(page.getByRole('dialog')).toContainText('Delete the file?');
    await page.getByTestId('media-confirm-delete').click();
    await expect(section.getByTestId('media-empty')).toBeVisible();
  });

  await test.step('an MP4 header followed by noise is refused as an invalid format', async () => {
    await page.getByTestId('media-input').setInputFiles(files.forged);
    await expect(page.getByTestId('media-error')).toHaveText('Invalid file format');
    await expect(section.getByTestId('media-empty')).toBeVisible();
  });

  await test.step('a video that does not play ends failed with the reason, in words', async () => {
    await page.getByTestId('media-input').setInputFiles(files.broken);
    const item = section.getByTestId('media-item');
    await expect(item).toHaveAttribute('data-status', 'failed', { timeout: 30_000 });
    await expect(item.getByTestId('media-item-error')).toHaveText('Invalid file format');
    await shot(page, SHOTS, '03-failed-video');
  });
});
