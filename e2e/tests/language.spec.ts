import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { LANGUAGES, type Language } from '@emolens/contracts';
import { expect, test } from '@playwright/test';

const LOCALES = resolve(import.meta.dirname, '../../apps/web/src/i18n/locales');
const text = (language: Language, ns: 'common' | 'public', path: string): string => {
  let node: unknown = JSON.parse(readFileSync(resolve(LOCALES, language, `${ns}.json`), 'utf8'));
  for (const key of path.split('.')) node = (node as Record<string, unknown>)[key];
  if (typeof node !== 'string') throw new Error(`no ${language}/${ns}:${path}`);
  return node;
};

for (const language of LANGUAGES) {
  test(`/price in ${language} through curr_lang`, async ({ page }) => {
    await page.goto(`/price?curr_lang=${language}`);
    await expect(page.getByTestId('price-title')).toHaveText(text(language, 'public', 'price.title'));
    await expect(page.locator('html')).toHaveAttribute('lang', language);
    await expect(page.getByRole('link', { name: text(language, 'common', 'nav.docs') }).first()).toBeVisible();
    for (const id of ['basic', 'smart', 'pro', 'enterprise'])
      await expect(page.getByTestId(`package-${id}`)).toBeVisible();
  });
}

test('the language switcher changes /price and the choice is remembered', async ({ page }) => {
  await page.goto('/price');
  // ru is the default language.
  await expect(page.getByTestId('price-title')).toHaveText(text('ru', 'public', 'price.title'));
  const steps: [Language, string][] = [
    ['en', 'English'],
    ['id', 'Bahasa Indonesia'],
    ['ko', '한국어'],
  ];
  for (const [language, name] of steps) {
    await page.getByTestId('language-switcher').first().click();
    await page.getByRole('option', { name }).click();
    await expect(page.getByTestId('price-title')).toHaveText(text(language, 'public', 'price.title'));
  }
  await page.reload();
  await expect(page.getByTestId('price-title')).toHaveText(text('ko', 'public', 'price.title'));
  await page.goto('/docs');
  await expect(page.locator('html')).toHaveAttribute('lang', 'ko');
});
