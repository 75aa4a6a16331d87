import { describe, expect, it } from 'vitest';
import { canAddStep, figmaEmbedUrl, galleryWith, isFigmaLink, withAnyClickMode } from './content.ts';

describe('Figma embed', () => {
  it('embeds a prototype link with scaling contain, hotspot hints off and the UI hidden', () => {
    const url = figmaEmbedUrl('https://www.figma.com/proto/AbCdEfGhIjKlMnOp/Shop?node-id=1-2&scaling=min-zoom');
    expect(url).toBeDefined();
    const embed = new URL(url ?? '');
    expect(embed.origin + embed.pathname).toBe('https://embed.figma.com/proto/AbCdEfGhIjKlMnOp/Shop');
    expect(Object.fromEntries(embed.searchParams)).toEqual({
      'node-id': '1-2',
      scaling: 'contain',
      'hotspot-hints': '0',
      'hide-ui': '1',
      'embed-host': 'emolens',
    });
  });

  it('knows a Figma link from any other', () => {
    expect(isFigmaLink('https://www.figma.com/design/AbCdEfGhIjKlMnOp/Shop')).toBe(true);
    expect(isFigmaLink('https://figma.com.evil.example/proto/AbCdEfGhIjKlMnOp')).toBe(false);
    expect(isFigmaLink('http://www.figma.com/proto/AbCdEfGhIjKlMnOp')).toBe(false);
    expect(figmaEmbedUrl('https://shop.example.com')).toBeUndefined();
  });
});

describe('task steps', () => {
  it('rejects a step whose screen is already in the list, in either node id spelling', () => {
    const steps = [{ targetNodeId: '12:345' }];
    expect(canAddStep(steps, '12-345')).toBe(false);
    expect(canAddStep(steps, ' 12:345 ')).toBe(false);
    expect(canAddStep(steps, '12:346')).toBe(true);
  });

  it('empties the steps when any-click mode is turned on, and keeps them when it is turned off', () => {
    const task = { anyIsFinal: false, steps: [{ targetNodeId: '1:2' }] };
    expect(withAnyClickMode(task, true)).toEqual({ anyIsFinal: true, steps: [] });
    expect(withAnyClickMode(task, false)).toEqual(task);
  });
});

describe('pictures gallery', () => {
  it('drops pictures that are gone and appends new ones with the default duration', () => {
    const gallery = {
      items: [
        { image: 'b', duration_seconds: 3 },
        { image: 'gone', duration_seconds: 4 },
      ],
    };
    expect(galleryWith(gallery, ['a', 'b'])).toEqual({
      items: [
        { image: 'b', duration_seconds: 3 },
        { image: 'a', duration_seconds: 10 },
      ],
    });
  });
});
