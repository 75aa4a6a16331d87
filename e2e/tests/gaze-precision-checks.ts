import { expect, type Locator, type Page } from '@playwright/test';
import { shot } from './support.ts';

/** The precision line (decision 052) in English: px, % of the diagonal, degrees or "not estimated". */
export const PRECISION_TEXT = /^Precision: [\d.,]+ px · [\d.,]+% · ([\d.,]+°|° not estimated)$/;

/**
 * The report's one respondent shows the gaze's precision on the validation dots beside the accuracy (decision 052):
 * its figures, its note on hover, and in Russian on a 390 px phone its card (a screenshot); the page is left as it was
 * found (English, 1280 px).
 */
export async function reportPrecision(page: Page, person: Locator, shots: string): Promise<void> {
  await expect(person.getByTestId('report-person-precision')).toHaveText(PRECISION_TEXT);
  await person.getByTestId('report-person-precision-how').hover();
  await expect(page.getByRole('tooltip')).toContainText('RMS sample to sample');
  const shownAt = page.url().split('?')[0];
  const size = page.viewportSize();
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(`${shownAt}?curr_lang=ru`);
  const card = page.getByTestId('report-person-card');
  await expect(card.getByTestId('report-person-precision')).toContainText('Прецизионность:');
  await card.scrollIntoViewIfNeeded();
  await shot(page, shots, '11b-report-ru-390', { target: card });
  if (size) await page.setViewportSize(size);
  await page.goto(`${shownAt}?curr_lang=en`);
  await expect(page.getByTestId('report-person')).toHaveCount(1);
}
