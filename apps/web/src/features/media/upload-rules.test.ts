import { CONTENT_TYPES, LANGUAGES, MEDIA_KINDS } from '@emolens/contracts';
import { describe, expect, it } from 'vitest';
import { type LocaleTree, lookup, missingKeys } from '../../i18n/locale-tree.ts';
import { resources } from '../../i18n/resources.ts';
import { checkMediaFile, uploadRules } from './api.ts';

const text = (language: (typeof LANGUAGES)[number], key: string) =>
  lookup(resources[language].media as LocaleTree, key) ?? '';

describe('what a research uploader takes', () => {
  it('offers a video research videos only and the image researches images only; a contentless one nothing', () => {
    expect(uploadRules('video')).toMatchObject({ kind: 'video', accept: expect.stringContaining('.mp4') });
    expect(uploadRules('video')?.accept).not.toMatch(/png|jpe?g|image/);
    for (const type of ['pictures', 'shelf', 'site'] as const) {
      expect(uploadRules(type)).toMatchObject({ kind: 'image', accept: expect.stringContaining('.png') });
      expect(uploadRules(type)?.accept).not.toMatch(/mp4|webm|mkv|video/);
    }
    expect(uploadRules('contentless')).toBeNull();
    expect(CONTENT_TYPES.filter((type) => type !== 'contentless').every((type) => uploadRules(type))).toBe(true);
  });

  it('refuses a picture for a video research and a video for a picture research before sending', () => {
    expect(checkMediaFile({ name: 'pack.png', size: 10 }, 'video')).toBe('invalidFormat');
    expect(checkMediaFile({ name: 'ad.mp4', size: 10 }, 'image')).toBe('invalidFormat');
    expect(checkMediaFile({ name: 'ad.mp4', size: 10 }, 'video')).toBeNull();
    expect(checkMediaFile({ name: 'pack.PNG', size: 10 }, 'image')).toBeNull();
  });

  it.each(LANGUAGES)('%s names the one kind a research takes, never "video or image"', (language) => {
    const keys = MEDIA_KINDS.flatMap((kind) => [`empty.${kind}`, `hint.${kind}`]);
    expect(missingKeys(language, 'media', keys)).toEqual([]);
    for (const key of ['empty.video', 'hint.video']) {
      expect(text(language, key)).toContain('MP4');
      expect(text(language, key)).not.toMatch(/JPEG|PNG/);
    }
    for (const key of ['empty.image', 'hint.image']) {
      expect(text(language, key)).toContain('PNG');
      expect(text(language, key)).not.toMatch(/MP4|WebM/);
    }
    expect(text(language, 'hint.video')).toContain('{{size}}');
    if (language !== 'en') expect(text(language, 'hint.video')).not.toBe(text('en', 'hint.video'));
  });
});
