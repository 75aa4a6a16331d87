import { expect, test } from '@playwright/test';
import { DEMO_PASSWORD } from '../playwright.config.ts';

test.describe('login journey', () => {
  test('a cabinet route without a session leads to login, and back there after login', async ({ page }) => {
    await page.goto('/cabinet/campaigns?curr_lang=en');
    await expect(page).toHaveURL(/\/login\?next=%2Fcabinet%2Fcampaigns/);
    await expect(page.getByRole('heading', { name: 'Log in to Emolens' })).toBeVisible();

    await page.getByLabel('Username').fill('demo');
    await page.getByLabel('Password').fill('wrong password');
    await page.getByRole('button', { name: 'Log in' }).click();
    await expect(page.getByTestId('login-error')).toHaveText('Wrong username or password.');

    await page.getByLabel('Password').fill(DEMO_PASSWORD);
    await page.getByRole('button', { name: 'Log in' }).click();
    await expect(page).toHaveURL(/\/cabinet\/campaigns\?curr_lang=en$/);
    await expect(page.getByRole('heading', { name: 'Researches', level: 2 })).toBeVisible();
    await expect(page.getByTestId('cabinet-user')).toContainText('Demo Analyst');

    // The session survives a reload; "/" leads a logged-in user to the projects list.
    await page.goto('/');
    await expect(page).toHaveURL(/\/cabinet\/projects$/);
    await expect(page.getByRole('heading', { name: 'Projects', level: 2 })).toBeVisible();

    // Exit asks first; cancelling keeps the user in.
    await page.getByRole('button', { name: 'Exit' }).click();
    await expect(page.getByRole('dialog')).toContainText('Log out?');
    await page.getByRole('button', { name: 'Cancel' }).click();
    await expect(page).toHaveURL(/\/cabinet\/projects$/);

    await page.getByRole('button', { name: 'Exit' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Log out' }).click();
    await expect(page).toHaveURL(/\/login$/);
    await page.goto('/cabinet/projects');
    await expect(page).toHaveURL(/\/login\?next=/);
  });

  test('a session that ends while the cabinet is open sends the user to login', async ({ page, context }) => {
    await page.goto('/login?curr_lang=en');
    await page.getByLabel('Username').fill('demo');
    await page.getByLabel('Password').fill(DEMO_PASSWORD);
    await page.getByRole('button', { name: 'Log in' }).click();
    await expect(page).toHaveURL(/\/cabinet\/projects$/);
    // A page that makes no calls of its own, so the only call is the one below.
    await page.goto('/cabinet/faq');
    await expect(page.getByTestId('faq')).toBeVisible();
    await context.clearCookies({ name: 'sessionid' });
    // Changing the language stores it on the server: the call now answers 401.
    await page.getByTestId('language-switcher').click();
    await page.getByRole('option', { name: 'Русский' }).click();
    await expect(page).toHaveURL(/\/login\?next=%2Fcabinet%2Ffaq/);
  });
});

test('unknown addresses show the not-found page', async ({ page }) => {
  const response = await page.goto('/no/such/page?curr_lang=en');
  expect(response?.status()).toBe(200);
  await expect(page.getByTestId('not-found')).toContainText('Page not found');
  await page.getByRole('link', { name: 'To the home page' }).click();
  await expect(page).toHaveURL(/\/home$/);
});

test('the cabinet shows that it is checking authorization first', async ({ page }) => {
  // The answer about the session is held until the page has been seen checking.
  let answer = () => {};
  const seen = new Promise<void>((resolve) => {
    answer = resolve;
  });
  await page.route('**/api/users/user-data/', async (route) => {
    await seen;
    await route.continue();
  });
  await page.goto('/cabinet/projects?curr_lang=en');
  await expect(page.getByTestId('checking-authorization')).toContainText('Checking authorization');
  answer();
  await expect(page).toHaveURL(/\/login\?next=/);
});
