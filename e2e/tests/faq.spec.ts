import { expect, test } from '@playwright/test';
import { login } from './support.ts';

/**
 * Cabinet → FAQ: the cabinet's topics and then the public FAQ's, a search that keeps only the questions holding
 * every word, marks the words and puts the query in the address, an empty result with its reset; in Russian too,
 * where ё and е are the same letter to the search.
 */
test('the cabinet FAQ lists its topics and searches questions and answers', async ({ page }) => {
  await login(page);
  await page.getByRole('navigation', { name: 'Cabinet menu' }).getByRole('link', { name: 'FAQ' }).click();
  await expect(page).toHaveURL(/\/cabinet\/faq$/);
  await expect(page.getByRole('heading', { level: 2, name: 'FAQ' })).toBeVisible();
  await expect(page.getByTestId('faq-found')).toHaveText(/^\d+ questions in 12 topics$/);
  for (const topic of ['cabinet-projects', 'cabinet-links', 'cabinet-api', 'general-calibration', 'general-privacy'])
    await expect(page.getByTestId(`faq-${topic}`)).toBeVisible();

  const search = page.getByTestId('faq-search');
  await search.fill('Check submitted codes');
  await expect(page.getByTestId('faq-found')).toHaveText('Found: 2');
  await expect(page).toHaveURL(/[?&]q=Check\+submitted\+codes/);
  const toloka = page.getByTestId('faq-item-cabinet.links.toloka');
  await expect(toloka).toContainText('Cabinet → Toloka');
  await expect(toloka.locator('mark').filter({ hasText: /^Check submitted codes$/ })).toBeVisible();
  await expect(page.getByTestId('faq-item-cabinet.links.mturk')).toBeVisible();
  await expect(page.getByTestId('faq-cabinet-api')).toHaveCount(0);
  await expect(page.getByTestId('faq-general-privacy')).toHaveCount(0);

  await search.fill('zebra ultraviolet');
  await expect(page.getByTestId('faq-empty')).toContainText('Nothing found for “zebra ultraviolet”');
  await page.getByTestId('faq-reset').click();
  await expect(search).toHaveValue('');
  await expect(search).toBeFocused();
  await expect(page.getByTestId('faq-cabinet-api')).toBeVisible();
  await expect(page).toHaveURL(/\/cabinet\/faq$/);
});

test('the cabinet FAQ in Russian finds «отчёт» written with е, and opens a search from its address', async ({
  page,
}) => {
  await login(page);
  await page.goto('/cabinet/faq?curr_lang=ru&q=отчет');
  await expect(page.getByRole('heading', { level: 2, name: 'Вопросы и ответы' })).toBeVisible();
  await expect(page.getByTestId('faq-search')).toHaveValue('отчет');
  await expect(page.getByTestId('faq-found')).toHaveText(/^Найдено: [1-9]\d*$/);
  const build = page.getByTestId('faq-item-cabinet.reports.build');
  await expect(build).toContainText('Как построить отчёт?');
  await expect(
    build
      .locator('mark')
      .filter({ hasText: /^отчёт$/i })
      .first(),
  ).toBeVisible();
});
