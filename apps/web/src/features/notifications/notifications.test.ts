import { NOTIFICATION_KINDS, NOTIFICATION_PARAMS } from '@emolens/contracts';
import { describe, expect, it } from 'vitest';
import { resources } from '../../i18n/resources.ts';
import { relativeTime } from './relative-time.ts';

const placeholders = (text: string) => [...text.matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((m) => m[1]).sort();

describe('notification texts', () => {
  it.each(NOTIFICATION_KINDS)('%s uses exactly the parameters the server sends', (kind) => {
    const text = resources.en.notifications.kinds[kind];
    expect(text).toBeTruthy();
    expect(placeholders(text)).toEqual([...NOTIFICATION_PARAMS[kind]].sort());
  });
});

describe('relative time', () => {
  const now = Date.parse('2026-12-02T12:00:00Z');
  const ago = (seconds: number) => new Date(now - seconds * 1000).toISOString();

  it('says how long ago, in the language, in the largest whole unit', () => {
    expect(relativeTime(ago(20), now, 'en')).toBe('now');
    expect(relativeTime(ago(5 * 60 + 10), now, 'en')).toBe('5 minutes ago');
    expect(relativeTime(ago(3 * 3600), now, 'en')).toBe('3 hours ago');
    expect(relativeTime(ago(26 * 3600), now, 'en')).toBe('yesterday');
    expect(relativeTime(ago(3 * 86400), now, 'en')).toBe('3 days ago');
    expect(relativeTime(ago(5 * 60), now, 'ru')).toBe('5 минут назад');
    expect(relativeTime(ago(2 * 3600), now, 'ko')).toBe('2시간 전');
  });

  it('a moment ahead of the clock is now', () => {
    expect(relativeTime(ago(-30), now, 'en')).toBe('now');
  });
});
