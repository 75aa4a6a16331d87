import { resolve } from 'node:path';
import { expect, test } from '@playwright/test';
import { OIDC_BUTTON_LABEL, OIDC_ISSUER } from '../playwright.config.ts';
import { shot } from './support.ts';

const SHOTS = resolve(import.meta.dirname, '../../.tmp/screenshots/sso');

/**
 * Single sign-on (issue 33 item 4, decision 067) against the OpenID provider the contract servers run: the login page
 * offers the operator's button, the provider's own login form signs the person in, and the app makes their account
 * (acme.test is allowed, accounts are made on first sign-in) and opens the cabinet with its usual session.
 */
test.describe('single sign-on', () => {
  // Two sites and the provider's form per test: a loaded machine needs more than the default 30 s.
  test.setTimeout(60_000);

  test('signs a new person in through the provider and lands them in the cabinet', async ({ page }) => {
    const email = `pat.${Date.now()}@acme.test`;
    await page.goto('/login?curr_lang=en&next=%2Fcabinet%2Fcampaigns');
    const button = page.getByRole('link', { name: OIDC_BUTTON_LABEL });
    await expect(button).toBeVisible();
    await shot(page, SHOTS, 'login-en');

    await button.click();
    await expect(page).toHaveURL(new RegExp(`^${OIDC_ISSUER}/interaction/`));
    await page.locator('input[name="login"]').fill(email);
    await page.locator('input[name="password"]').fill('any password');
    await page.getByRole('button', { name: 'Sign-in' }).click();

    await expect(page).toHaveURL(/\/cabinet\/campaigns$/);
    await expect(page.getByRole('heading', { name: 'Researches', level: 2 })).toBeVisible();
    await expect(page.getByTestId('cabinet-user')).toContainText('Pat Doe');

    // The account made on this first sign-in, with the configured role and the login page's language.
    const me = await page.evaluate(async () => (await fetch('/api/users/user-data/')).json());
    expect(me).toMatchObject({ username: email, role: 'customer', current_lang: 'en' });
  });

  test('tells a person the provider has not verified why they are refused, in their language', async ({ page }) => {
    await page.goto('/login?curr_lang=ru');
    await page.getByRole('link', { name: OIDC_BUTTON_LABEL }).click();
    await page.locator('input[name="login"]').fill('sam@unverified.test');
    await page.locator('input[name="password"]').fill('any password');
    await page.getByRole('button', { name: 'Sign-in' }).click();
    await expect(page).toHaveURL(/\/login\?sso_error=email_unverified$/);
    await expect(page.getByTestId('sso-error')).toContainText('нет подтверждённого адреса e-mail');
    await page.setViewportSize({ width: 390, height: 844 });
    await shot(page, SHOTS, 'refused-ru-phone');
  });
});
