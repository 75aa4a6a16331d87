import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { expect, type Page } from '@playwright/test';
import { DEMO_PASSWORD } from '../playwright.config.ts';

/** Logs in as the demo user, in English. */
export async function login(page: Page): Promise<void> {
  await page.goto('/login?curr_lang=en');
  await page.getByLabel('Username').fill('demo');
  await page.getByLabel('Password').fill(DEMO_PASSWORD);
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page).toHaveURL(/\/cabinet\/projects/);
}

/** Calls the cabinet API from the page, as the web app does (the CSRF cookie as a header). */
export async function cabinetApi<T>(page: Page, method: string, path: string, body?: unknown): Promise<T> {
  return page.evaluate(
    async ({ method, path, body }) => {
      const csrf = document.cookie
        .split(';')
        .map((part) => part.trim())
        .find((part) => part.startsWith('csrftoken='))
        ?.slice('csrftoken='.length);
      const response = await fetch(`/api${path}`, {
        method,
        credentials: 'same-origin',
        headers: { 'content-type': 'application/json', 'X-CSRFToken': decodeURIComponent(csrf ?? '') },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
      return (await response.json()) as T;
    },
    { method, path, body },
  );
}

/** A real photograph of a face (Debian's python3-skimage). */
export const ASTRONAUT = '/usr/lib/python3/dist-packages/skimage/data/astronaut.png';

/** A real 2-second WebM of the astronaut (320 px wide, 10 fps), made in `dir`; its path. */
export function astronautVideo(dir: string): string {
  mkdirSync(dir, { recursive: true });
  const video = resolve(dir, 'astronaut.webm');
  const args = ['-y', '-loglevel', 'error', '-loop', '1', '-i', ASTRONAUT, '-t', '2', '-r', '10'];
  execFileSync('ffmpeg', [
    ...args,
    '-vf',
    'scale=320:-2',
    '-c:v',
    'libvpx',
    '-b:v',
    '500k',
    '-deadline',
    'realtime',
    video,
  ]);
  return video;
}
