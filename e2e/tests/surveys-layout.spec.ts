// The questionnaires' list, editor and preview at desktop and phone widths, in English and Russian.
import { resolve } from 'node:path';
import { expect, test } from '@playwright/test';
import { type CabinetSurvey, cabinetApi, login, shot } from './support.ts';

const SHOTS = resolve(import.meta.dirname, '../../.tmp/shots-surveys');

test.use({ viewport: { width: 1440, height: 900 }, actionTimeout: 15_000 });

const both = (en: string, ru: string) => ({ en, ru });

test('the list, the editor and the preview fit desktop and phone widths, in English and Russian', async ({ page }) => {
  test.setTimeout(150_000);
  const suffix = Date.now().toString(36);
  await login(page);
  const survey = await cabinetApi<CabinetSurvey>(page, 'POST', '/cabinet/surveys/', {
    type: 'survey',
    title: `Summer campaign survey ${suffix}`,
    questions: [
      {
        id: 'brand',
        type: 'single',
        text: both('Which brand of juice did you buy last?', 'Сок какой марки вы покупали последним?'),
        other: true,
        options: [
          { id: 'a', text: both('Sunny Valley', 'Солнечная долина') },
          { id: 'b', text: both('Fresh Orchard', 'Свежий сад') },
        ],
      },
      {
        id: 'why',
        type: 'text',
        text: both('What do you like about Fresh Orchard?', 'Что вам нравится в «Свежем саде»?'),
        conditions: [{ question: 'brand', operator: 'selected', value: 'b' }],
      },
      {
        id: 'like',
        type: 'scale',
        text: both('How much did you like the video?', 'Насколько вам понравился ролик?'),
        required: true,
        min: 1,
        max: 10,
        min_label: both('Not at all', 'Совсем нет'),
        max_label: both('Very much', 'Очень'),
      },
      {
        id: 'grid',
        type: 'matrix',
        text: both('Rate the video', 'Оцените ролик'),
        rows: [
          { id: 'r1', text: both('Music', 'Музыка') },
          { id: 'r2', text: both('Story', 'Сюжет') },
        ],
        options: [
          { id: 'bad', text: both('Poor', 'Плохо') },
          { id: 'ok', text: both('Fine', 'Нормально') },
          { id: 'good', text: both('Great', 'Отлично') },
        ],
      },
      { id: 'age', type: 'number', text: both('Your age', 'Ваш возраст'), min: 18, max: 99 },
      { id: 'bye', type: 'info', text: both('Thank you for your answers!', 'Спасибо за ответы!') },
    ],
  });
  const screener = await cabinetApi<CabinetSurvey>(page, 'POST', '/cabinet/surveys/', {
    type: 'screener',
    title: `Juice buyers ${suffix}`,
    questions: [
      {
        id: 'gender',
        type: 'single',
        text: both('Your gender', 'Ваш пол'),
        options: [
          { id: 'w', text: both('Woman', 'Женщина'), rule: 'quota', share: 50 },
          { id: 'm', text: both('Man', 'Мужчина'), rule: 'quota', share: 50 },
        ],
      },
      {
        id: 'juice',
        type: 'multiple',
        text: both('Which drinks have you bought this month?', 'Какие напитки вы покупали в этом месяце?'),
        options: [
          { id: 'j', text: both('Juice', 'Сок') },
          { id: 's', text: both('Soda', 'Газировка') },
          { id: 'n', text: both('None of these', 'Ничего из этого'), rule: 'dropout' },
        ],
      },
    ],
  });

  for (const language of ['en', 'ru'] as const) {
    await page.goto(`/cabinet/surveys?curr_lang=${language}`);
    for (const width of [1440, 390]) {
      await page.setViewportSize({ width, height: width > 500 ? 900 : 844 });
      const name = `${language}-${width}`;
      await page.goto('/cabinet/surveys');
      // A phone gets cards instead of the table.
      await expect(page.getByTestId(width > 500 ? 'survey-row' : 'survey-card').first()).toBeVisible();
      await expect(page.getByTestId(width > 500 ? 'survey-card' : 'survey-row').first()).toBeHidden();
      await shot(page, SHOTS, `list-${name}`);

      await page.goto(`/cabinet/surveys/${survey.id}`);
      await expect(page.getByTestId('question-card')).toHaveCount(6);
      // Nothing scrolls sideways: every part fits the window.
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
      await shot(page, SHOTS, `editor-${name}`, { closeNotifications: false, fullPage: true });

      await page.goto(`/cabinet/surveys/${screener.id}`);
      await expect(page.getByTestId('quota-sum')).toContainText('100%');
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
      await shot(page, SHOTS, `screener-${name}`, { closeNotifications: false, fullPage: true });

      await page.goto(`/cabinet/surveys/${survey.id}`);
      await page.getByTestId('survey-preview-open').click();
      const preview = page.getByTestId('survey-preview');
      if (width < 500) await preview.getByTestId('preview-device').locator('label').nth(1).click();
      const frame = preview.getByTestId('preview-frame');
      await frame.getByText(language === 'en' ? 'Fresh Orchard' : 'Свежий сад', { exact: true }).click();
      await expect(frame.getByTestId('survey-form-question')).toHaveCount(6);
      await shot(page, SHOTS, `preview-${name}`);
      await frame.getByTestId('survey-form-submit').click();
      await expect(frame.getByTestId('survey-form-error').first()).toBeVisible();
      expect(await frame.evaluate((node) => node.scrollWidth <= node.clientWidth)).toBe(true);
      await shot(page, SHOTS, `preview-errors-${name}`);
      await page.keyboard.press('Escape');
    }
  }
});
