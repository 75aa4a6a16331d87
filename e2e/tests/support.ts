import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { expect, type Locator, type Page, test } from '@playwright/test';
import { DEMO_PASSWORD, demoUsername } from '../playwright.config.ts';

/**
 * This worker's own demo account (playwright.config.ts makes one per worker): the workers' tests never see each
 * other's projects and researches.
 */
export function demoAccount(): { username: string; password: string } {
  return { username: demoUsername(test.info().parallelIndex), password: DEMO_PASSWORD };
}

/** Logs in as this worker's demo user (or `as`), in English. */
export async function login(page: Page, as = demoAccount()): Promise<void> {
  await page.goto('/login?curr_lang=en');
  await page.getByLabel('Username').fill(as.username);
  await page.getByLabel('Password').fill(as.password);
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

/**
 * A draft project made through the API (Toloka, English respondents, simple audience, the new flow unless told: the
 * old one calibrates for 12 s instead of 34); its id.
 */
export async function createProject(
  page: Page,
  title: string,
  {
    flow = 'new',
    platform = 'toloka',
    language = 'en',
  }: { flow?: 'new' | 'old'; platform?: string; language?: string } = {},
): Promise<string> {
  const project = await cabinetApi<{ id: string }>(page, 'POST', '/cabinet/projects/', {
    title,
    platform,
    respondent_language: language,
    audience_type: 'simple',
    flow_type: flow,
  });
  return project.id;
}

/** A scenario of the project's `researchIds` and a quota link to it (`link`: the link's fields); the link's token. */
export async function scenarioWithLink(
  page: Page,
  projectId: string,
  researchIds: string[],
  link: { quota_size?: number | null; is_use_face_checker?: boolean } = {},
): Promise<string> {
  const scenario = await cabinetApi<{ id: string }>(page, 'POST', `/cabinet/projects/${projectId}/scenarios/`, {
    campaign_ids: researchIds,
  });
  const made = await cabinetApi<{ token: string }>(
    page,
    'POST',
    `/cabinet/scenarios/${scenario.id}/project-accessor-links/`,
    link,
  );
  return made.token;
}

/**
 * What a launch needs, made through the API: a contentless research (`research`, its title) in a scenario, and a
 * quota link (`link`, its fields). The research's id and the link's token.
 */
export async function readyToLaunch(
  page: Page,
  projectId: string,
  { research = `Interview ${Date.now()}`, link = {} }: { research?: string; link?: { quota_size?: number } } = {},
): Promise<{ researchId: string; token: string }> {
  const added = await cabinetApi<{ campaigns: { id: string }[] }>(page, 'POST', '/cabinet/projects/add-new-campaign/', {
    project_id: projectId,
    campaigns_data: [{ title: research, content_type: 'contentless' }],
  });
  const researchId = added.campaigns[0]?.id ?? '';
  return { researchId, token: await scenarioWithLink(page, projectId, [researchId], link) };
}

/** A launched project: a contentless research in a scenario and a quota link of 5; its id and the link's token. */
export async function launchedProject(
  page: Page,
  title: string,
): Promise<{ projectId: string; researchId: string; token: string }> {
  const projectId = await createProject(page, title);
  const ready = await readyToLaunch(page, projectId, { research: `Interview of ${title}`, link: { quota_size: 5 } });
  await cabinetApi(page, 'POST', `/cabinet/projects/${projectId}/launch/`, {});
  return { projectId, ...ready };
}

/**
 * A draft project `host` holding one research `title` of `contentType` (with `fields`; a shelf research
 * is made only `fromWizard`), made through the API; the names end with the time, so runs never meet.
 * The research's id.
 */
export async function createResearch(
  page: Page,
  contentType: string,
  {
    host,
    title,
    fromWizard = false,
    ...fields
  }: { host: string; title: string; fromWizard?: boolean; site_url?: string },
): Promise<string> {
  const suffix = Date.now().toString(36);
  const projectId = await createProject(page, `${host} ${suffix}`);
  const created = await cabinetApi<{ campaigns: { id: string }[] }>(
    page,
    'POST',
    '/cabinet/projects/add-new-campaign/',
    {
      project_id: projectId,
      ...(fromWizard ? { from_wizard: true } : {}),
      campaigns_data: [{ title: `${title} ${suffix}`, content_type: contentType, ...fields }],
    },
  );
  return created.campaigns[0]?.id ?? '';
}

/**
 * Drags `source` (a drag handle) by the mouse onto `target`, as a person does: press, a small move that starts
 * the drag, then a slow move to just above the target's middle, an optional look before the drop, release.
 * The target is scrolled to the middle of the window first: a pointer cannot leave the viewport, and a sticky
 * header may cover an element the browser counts as visible (seen in CI: the drop landed on the header).
 */
export async function pointerDrag(page: Page, source: Locator, target: Locator, beforeDrop?: () => Promise<void>) {
  await target.evaluate((element) => element.scrollIntoView({ block: 'center' }));
  await source.scrollIntoViewIfNeeded();
  const from = await source.boundingBox();
  const to = await target.boundingBox();
  if (!from || !to) throw new Error('nothing to drag');
  const x = from.x + from.width / 2;
  const y = from.y + from.height / 2;
  await page.mouse.move(x, y);
  await page.mouse.down();
  await page.mouse.move(x, y - 10, { steps: 4 });
  await page.mouse.move(x, to.y + to.height / 2 - 8, { steps: 16 });
  await beforeDrop?.();
  await page.mouse.up();
}

/** Pictures for looking at are taken only when asked (E2E_SCREENSHOTS=1); a failing test keeps its own anyway. */
export const SCREENSHOTS = process.env.E2E_SCREENSHOTS === '1';

/**
 * A picture of the page (or of `target` alone) as `dir/name.png`, when asked (SCREENSHOTS), once notifications are
 * closed (unless `closeNotifications` is false), with transitions and animations finished: the page itself.
 */
export async function shot(
  page: Page,
  dir: string,
  name: string,
  {
    target,
    closeNotifications = true,
    fullPage = false,
  }: { target?: Locator; closeNotifications?: boolean; fullPage?: boolean } = {},
): Promise<void> {
  if (!SCREENSHOTS) return;
  mkdirSync(dir, { recursive: true });
  if (closeNotifications) {
    const notifications = page.locator('.mantine-Notification-root');
    await notifications.locator('.mantine-Notification-closeButton').evaluateAll((buttons) => {
      for (const button of buttons) (button as HTMLElement).click();
    });
    await expect(notifications).toHaveCount(0);
  }
  const path = resolve(dir, `${name}.png`);
  if (target) await target.screenshot({ path, animations: 'disabled' });
  else await page.screenshot({ path, fullPage, animations: 'disabled' });
}

/** A real photograph of a face (Debian's python3-skimage). */
export const ASTRONAUT = '/usr/lib/python3/dist-packages/skimage/data/astronaut.png';

/** A real WebM of the astronaut (320 px wide, 10 fps, 2 seconds unless told), made in `dir`; its path. */
export function astronautVideo(dir: string, seconds = 2): string {
  mkdirSync(dir, { recursive: true });
  const video = resolve(dir, seconds === 2 ? 'astronaut.webm' : `astronaut-${seconds}s.webm`);
  const args = ['-y', '-loglevel', 'error', '-loop', '1', '-i', ASTRONAUT, '-t', String(seconds), '-r', '10'];
  execFileSync('ffmpeg', [
    ...args,
    '-vf',
    'scale=320:-2',
    '-c:v',
    'libvpx',
    // One encoder thread: libvpx's threads wait for each other busily on a loaded machine.
    '-threads',
    '1',
    '-b:v',
    '500k',
    '-deadline',
    'realtime',
    video,
  ]);
  return video;
}

/** A screenshot of a small shop page, rendered by the browser itself, saved as `dir/shop.png`; its path. */
export async function renderShop(page: Page, dir: string): Promise<string> {
  mkdirSync(dir, { recursive: true });
  const path = resolve(dir, 'shop.png');
  const cards = [1, 2, 3, 4, 5, 6]
    .map(
      (i) =>
        `<div style="border:1px solid #ddd;border-radius:12px;padding:16px"><div style="height:120px;background:hsl(${i * 50},70%,80%)"></div><h3>Product ${i}</h3><button>Add to cart</button></div>`,
    )
    .join('');
  const viewport = page.viewportSize();
  await page.setViewportSize({ width: 1024, height: 700 });
  await page.setContent(
    `<body style="margin:0;font-family:sans-serif"><header style="background:#1e3a8a;color:#fff;padding:20px 32px"><b>ShopLens</b></header><main style="padding:32px;display:grid;grid-template-columns:repeat(3,1fr);gap:20px">${cards}</main></body>`,
  );
  await page.screenshot({ path });
  if (viewport) await page.setViewportSize(viewport);
  return path;
}

/** A questionnaire as the cabinet API answers it (the fields the specs read). */
export interface CabinetSurvey {
  id: string;
  title: string;
  updated_at: string;
  questions: unknown[];
}
