import type { Language } from '@emolens/contracts';
import { resources } from './resources.ts';

export type LocaleTree = { [key: string]: string | LocaleTree };
export type Namespace = keyof (typeof resources)['en'];

/** The text at a dot-joined key of a namespace's tree, or undefined. */
export function lookup(tree: LocaleTree, path: string): string | undefined {
  let node: string | LocaleTree | undefined = tree;
  for (const part of path.split('.')) node = typeof node === 'object' ? node[part] : undefined;
  return typeof node === 'string' ? node : undefined;
}

/** The keys of `keys` a language lacks in a namespace (keys built at run time, which a scan of the code cannot see). */
export function missingKeys(language: Language, namespace: Namespace, keys: readonly string[]): string[] {
  const tree = resources[language][namespace] as LocaleTree;
  return keys.filter((key) => !lookup(tree, key));
}

/** A `t` of one namespace in English, with `{{name}}` placeholders filled: for tests of translated messages. */
export function englishT(namespace: Namespace) {
  return (key: string, options?: Record<string, unknown>) =>
    (lookup(resources.en[namespace] as LocaleTree, key) ?? key).replace(/\{\{(\w+)\}\}/g, (_, name) =>
      String(options?.[name]),
    );
}
