import { resolve } from 'node:path';
import { expect, type Locator, type Page, test } from '@playwright/test';
import { STAFF } from '../playwright.config.ts';
import { login, shot } from './support.ts';

/**
 * What a first customer trips over (issue 28, items 12, 14 and 16): becoming a customer from /price, the categories
 * directory of a new installation, the benchmark base's real size, the self-service wizard's respondents and its
 * uploader that takes videos only. Pictures in English and Russian, 1440 and 390 px wide.
 */
const SHOTS = resolve(import.meta.dirname, '../../.tmp/shots-first-customer');
const WIDTHS = [1440, 390] as const;

test.use({ actionTimeout: 15_000 });

/** The page (or `target` alone) at both widths, in the current language: `name-<width>.png`. */
async function shots(page: Page, name: string, target?: Locator) {
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
    // In the middle of the window: the sticky header does not cover it.
    await target?.evaluate((element) => element.scrollIntoView({ block: 'center' }));
    await shot(page, SHOTS, `${name}-${width}`, { target });
  }
  await page.setViewportSize({ width: 1440, height: 900 });
}

test('a visitor asks for access from /price; staff see the request under Sessions and make the account', async ({
  page,
  browser,
}) => {
  test.setTimeout(180_000);
  const suffix = Date.now().toString(36);
  const email = `anna.${suffix}@acme.example`;

  await test.step('the form in Russian, from the price page', async () => {
    await page.goto('/price?curr_lang=ru');
    await page.getByTestId('price-choose-pro').click();
    await expect(page).toHaveURL(/\/request-access\?package=pro$/);
    await expect(page.getByRole('heading', { name: 'Запросить доступ' })).toBeVisible();
    await expect(page.getByTestId('request-access-package')).toHaveValue(/^Pro/);
    await shots(page, 'request-form-ru');
  });

  await test.step('/price → Get started → the form, with its checks; sent', async () => {
    await page.goto('/price?curr_lang=en');
    await expect(page.getByTestId('price-choose-smart')).toHaveText('Get started');
    await page.getByTestId('price-choose-smart').click();
    await expect(page).toHaveURL(/\/request-access\?package=smart$/);
    await expect(page.getByTestId('request-access-package')).toHaveValue(/^Smart/);
    await page.getByTestId('request-access-submit').click();
    await expect(page.getByTestId('request-access-form')).toContainText(
      "This is a required field. Don't leave it empty",
    );
    await page.getByTestId('request-access-name').fill('Anna Petrova');
    await page.getByTestId('request-access-company').fill(`Acme Foods ${suffix}`);
    await page.getByTestId('request-access-email').fill('anna at acme');
    await page.getByTestId('request-access-submit').click();
    await expect(page.getByTestId('request-access-form')).toContainText('Enter an e-mail address');
    await page.getByTestId('request-access-email').fill(email);
    await page.getByTestId('request-access-message').fill('We test six video ads a quarter.');
    await shots(page, 'request-form-en');
    await page.getByTestId('request-access-submit').click();
    await expect(page.getByTestId('request-access-sent')).toContainText(`write to ${email}`);
    await shots(page, 'request-sent-en');
  });

  let password = '';
  await test.step('staff see it under Sessions, are notified, and make the account', async () => {
    const staff = await browser.newPage();
    await login(staff, STAFF);
    await staff.getByTestId('notification-bell').click();
    await expect(staff.getByTestId('notification-list')).toContainText(
      `Anna Petrova of Acme Foods ${suffix} asked for access`,
    );
    await staff.keyboard.press('Escape');
    await staff.goto('/cabinet/licences');
    const row = staff.getByTestId('access-request').filter({ hasText: email });
    await expect(row).toHaveAttribute('data-status', 'new');
    await expect(row).toContainText(`Acme Foods ${suffix}`);
    await expect(row).toContainText('Package: Smart');
    await shots(staff, 'requests-staff-en');
    await row.getByTestId('access-request-convert').click();
    await staff.getByTestId('confirm-action').click();
    const made = staff.getByTestId('access-request-made');
    await expect(made.getByTestId('made-username')).toHaveValue(email);
    password = await made.getByTestId('made-password').inputValue();
    expect(password.length).toBeGreaterThanOrEqual(12);
    await shots(staff, 'account-made-en');
    await made.getByTestId('access-request-made-close').click();
    await expect(row).toHaveAttribute('data-status', 'done');
    await expect(row.getByTestId('access-request-account')).toContainText(email);
    await expect(row.getByTestId('access-request-convert')).toHaveCount(0);
    await staff.goto('/cabinet/licences?curr_lang=ru');
    await expect(staff.getByTestId('access-requests')).toContainText('Заявки на доступ');
    await shots(staff, 'requests-staff-ru');
    await staff.close();
  });

  await test.step('the new customer logs in with the password shown once', async () => {
    const customer = await browser.newPage();
    await login(customer, { username: email, password });
    await customer.close();
  });
});

test('a new installation: no invented benchmark figure; the self-service wizard has subtypes, takes videos only and says "at least 100"', async ({
  page,
}) => {
  test.setTimeout(300_000);

  await test.step('/home names no benchmark base the installation does not have', async () => {
    await page.goto('/home?curr_lang=en');
    await expect(page.getByTestId('home-stats')).toBeVisible();
    await expect(page.getByTestId('home-stat-benchmark')).toHaveCount(0);
    await expect(page.locator('body')).not.toContainText('350');
    await expect(page.locator('body')).toContainText('benchmarks against completed researches of the same subtype');
    await shots(page, 'home-en', page.getByTestId('home-stats'));
    await page.goto('/home?curr_lang=ru');
    await expect(page.getByTestId('home-stat-benchmark')).toHaveCount(0);
    await expect(page.locator('body')).toContainText('бенчмарки по завершённым исследованиям того же подтипа');
    await shots(page, 'home-ru', page.getByTestId('home-stats'));
    await page.goto('/price?curr_lang=ru');
    await expect(page.getByTestId('package-smart')).toContainText(
      'Бенчмарки по завершённым исследованиям того же подтипа',
    );
    await shots(page, 'price-cta-ru', page.getByTestId('price-request-access').locator('xpath=../..'));
  });

  await login(page);
  await page.goto('/cabinet/self-service/add');
  await page.getByTestId('self-service-title').fill(`First test ${Date.now().toString(36)}`);
  await page.getByTestId('self-service-create').click();
  await expect(page).toHaveURL(/\/cabinet\/self-service\/[0-9a-f-]{36}$/);

  await test.step('the video step takes videos only', async () => {
    await expect(page.getByTestId('media-hint')).toContainText('Videos only: MP4, WebM or MKV');
    await expect(page.getByTestId('media-empty')).not.toContainText('image');
    const accept = await page.getByTestId('media-input').getAttribute('accept');
    expect(accept).toContain('.mp4');
    expect(accept).not.toMatch(/png|jpe?g|image/);
    await shots(page, 'self-service-video-en');
    await page.goto(`${page.url()}?curr_lang=ru`);
    await expect(page.getByTestId('media-hint')).toContainText('Только видео: MP4, WebM или MKV');
    await shots(page, 'self-service-video-ru');
    await page.goto(`${page.url().split('?')[0]}?curr_lang=en`);
  });

  await test.step('the categories step offers the directory of a new installation', async () => {
    await page.getByTestId('self-service-next').click();
    await page.getByTestId('self-service-category-subtype').click();
    await page.getByRole('option', { name: 'TV commercial' }).click();
    await page.getByTestId('self-service-category-industry').click();
    await page.getByRole('option', { name: 'FMCG', exact: true }).click();
    await shots(page, 'self-service-categories-en');
    await page.getByTestId('self-service-next').click();
    await expect(page.getByText('Changes saved')).toBeVisible();
  });

  await test.step('50 respondents stays 50 and says "at least 100"', async () => {
    await expect(page.getByTestId('self-service-step-title')).toHaveText('Audience');
    const respondents = page.getByTestId('self-service-respondents');
    await respondents.fill('50');
    await respondents.blur();
    await expect(respondents).toHaveValue('50');
    await expect(page.getByTestId('self-service-step-content-audience')).toContainText('At least 100 respondents');
    await shots(page, 'self-service-audience-en');
    await page.goto(`${page.url().split('?')[0]}?curr_lang=ru`);
    await page.getByTestId('self-service-step-audience').click();
    await page.getByTestId('self-service-respondents').fill('50');
    await page.getByTestId('self-service-respondents').blur();
    await expect(page.getByTestId('self-service-respondents')).toHaveValue('50');
    await expect(page.getByTestId('self-service-step-content-audience')).toContainText('Не меньше 100 респондентов');
    await shots(page, 'self-service-audience-ru');
  });
});
