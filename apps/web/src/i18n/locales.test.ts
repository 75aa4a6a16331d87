import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { LANGUAGES } from '@emolens/contracts';
import { describe, expect, it } from 'vitest';
import type { LocaleTree as Tree } from './locale-tree.ts';
import { resources } from './resources.ts';

const SRC = join(dirname(fileURLToPath(import.meta.url)), '..');

function flatten(tree: Tree, prefix = ''): Map<string, string> {
  const out = new Map<string, string>();
  for (const [key, value] of Object.entries(tree)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (typeof value === 'string') out.set(path, value);
    else for (const [k, v] of flatten(value, path)) out.set(k, v);
  }
  return out;
}

const variables = (text: string) => [...text.matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((m) => m[1]).sort();
const namespaces = Object.keys(resources.en) as (keyof typeof resources.en)[];

describe.each(namespaces)('locale namespace %s', (ns) => {
  const reference = flatten(resources.en[ns] as Tree);

  it.each(LANGUAGES.filter((l) => l !== 'en'))('%s has exactly the keys of en, translated', (language) => {
    const keys = flatten(resources[language][ns] as Tree);
    const missing = [...reference.keys()].filter((k) => !keys.has(k));
    const extra = [...keys.keys()].filter((k) => !reference.has(k));
    expect(missing, `missing in ${language}/${ns}`).toEqual([]);
    expect(extra, `not in en/${ns}`).toEqual([]);
    for (const [key, text] of keys) {
      expect(text.trim(), `${language}/${ns}:${key} is empty`).not.toBe('');
      expect(variables(text), `${language}/${ns}:${key} placeholders`).toEqual(variables(reference.get(key) ?? ''));
    }
  });
});

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(name) && !name.endsWith('.test.ts') ? [path] : [];
  });
}

describe('keys used in the code', () => {
  it('exist in the locale of their namespace', () => {
    const missing: string[] = [];
    const every = namespaces.map((n) => flatten(resources.en[n] as Tree));
    for (const file of sourceFiles(SRC)) {
      const text = readFileSync(file, 'utf8');
      const declared = /useTranslation\('(\w+)'\)/.exec(text)?.[1];
      // A shared piece that is handed its `t` (or its namespace) by the page using it reads that page's namespace:
      // its keys must exist in a namespace (each caller's own is checked where the caller names it).
      const handedT = !declared && !/useTranslation\(\s*\)/.test(text);
      const ns = (declared && declared in resources.en ? declared : 'common') as (typeof namespaces)[number];
      const keys = flatten(resources.en[ns] as Tree);
      for (const match of text.matchAll(/\bt\(\s*'([\w.]+)'/g)) {
        const key = match[1] ?? '';
        const [maybeNs, rest] = key.includes(':') ? key.split(':') : [ns, key];
        const inNs = flatten(resources.en[maybeNs as typeof ns] as Tree);
        // A key given a context (`t('mode', { context: platform })`) exists as its variants `mode_<context>`.
        const variants = [...inNs.keys()].some((k) => k.startsWith(`${rest ?? key}_`));
        const elsewhere = handedT && every.some((tree) => tree.has(key));
        if (!inNs.has(rest ?? key) && !keys.has(key) && !variants && !elsewhere) {
          missing.push(`${relative(SRC, file)}: ${key}`);
        }
      }
    }
    expect(missing).toEqual([]);
  });
});
