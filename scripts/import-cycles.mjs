#!/usr/bin/env node
// Import loops (issue 29, item 2): no loop of more than 3 files in apps/server, apps/web or packages. Every relative
// import counts — `import`, `import type`, `export … from`, `import('…')` types — read with the TypeScript parser;
// a lazy `import()` call does not (a job's handler, a route's page: loaded when first used, after every module has
// loaded, which is what keeps a job's definition apart from its handler); `--lazy` counts them too. A group of files
// that reach one another (a strongly connected component) is searched for a loop longer than the limit; each one
// found is printed as its chain of files and the script exits with 1.
// Usage: node scripts/import-cycles.mjs [--max N] [--lazy] [roots…]
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const maxAt = args.indexOf('--max');
const MAX = maxAt >= 0 ? Number(args.splice(maxAt, 2)[1]) : 3;
const lazyAt = args.indexOf('--lazy');
const LAZY = lazyAt >= 0 && args.splice(lazyAt, 1).length > 0;
const roots = (args.length ? args : ['apps/server/src', 'apps/web/src', 'packages']).map((r) => resolve(ROOT, r));

const SOURCE = /\.(ts|tsx|mts|cts|js|mjs|jsx)$/;
const SKIP_DIRS = new Set(['node_modules', 'dist', 'build', '.tmp', 'coverage']);

function filesUnder(dir, out = []) {
  for (const name of readdirSync(dir)) {
    if (SKIP_DIRS.has(name) || name.startsWith('.')) continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) filesUnder(path, out);
    else if (SOURCE.test(name) && !name.endsWith('.d.ts')) out.push(path);
  }
  return out;
}

/** The file a relative specifier names: as written, with a source extension, or a folder's index. */
function resolveSpecifier(from, specifier) {
  const base = resolve(dirname(from), specifier);
  const candidates = [base];
  // `./x.js` written for `./x.ts` (TypeScript's ESM convention).
  if (/\.(m|c)?jsx?$/.test(base)) candidates.push(base.replace(/\.(m|c)?js(x?)$/, '.$1ts$2'));
  for (const ext of ['.ts', '.tsx', '.mts', '.js', '.mjs']) candidates.push(base + ext);
  for (const ext of ['.ts', '.tsx', '.js']) candidates.push(join(base, `index${ext}`));
  return candidates.find((c) => existsSync(c) && statSync(c).isFile());
}

/** Every relative module specifier of one file. */
function specifiersOf(path) {
  const text = readFileSync(path, 'utf8');
  const kind = path.endsWith('x') ? ts.ScriptKind.TSX : ts.ScriptKind.TS;
  const source = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, false, kind);
  const found = [];
  const visit = (node) => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier) {
      if (ts.isStringLiteral(node.moduleSpecifier)) found.push(node.moduleSpecifier.text);
    } else if (
      LAZY &&
      ts.isCallExpression(node) &&
      node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      node.arguments[0] &&
      ts.isStringLiteralLike(node.arguments[0])
    ) {
      found.push(node.arguments[0].text);
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) {
      const literal = node.argument.literal;
      if (ts.isStringLiteral(literal)) found.push(literal.text);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found.filter((s) => s.startsWith('./') || s.startsWith('../'));
}

const files = roots.filter((r) => existsSync(r)).flatMap((r) => filesUnder(r));
const graph = new Map();
for (const file of files) {
  const targets = new Set();
  for (const specifier of specifiersOf(file)) {
    const target = resolveSpecifier(file, specifier);
    if (target && target !== file) targets.add(target);
  }
  graph.set(file, [...targets]);
}

/** Tarjan's strongly connected components (iterative: deep import chains would overflow the stack). */
function components() {
  let index = 0;
  const indices = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const result = [];
  for (const start of graph.keys()) {
    if (indices.has(start)) continue;
    const work = [[start, 0]];
    indices.set(start, index);
    low.set(start, index++);
    stack.push(start);
    onStack.add(start);
    while (work.length) {
      const frame = work[work.length - 1];
      const [node, i] = frame;
      const next = (graph.get(node) ?? [])[i];
      if (next !== undefined) {
        frame[1]++;
        if (!graph.has(next)) continue;
        if (!indices.has(next)) {
          indices.set(next, index);
          low.set(next, index++);
          stack.push(next);
          onStack.add(next);
          work.push([next, 0]);
        } else if (onStack.has(next)) {
          low.set(node, Math.min(low.get(node), indices.get(next)));
        }
        continue;
      }
      work.pop();
      if (work.length) {
        const parent = work[work.length - 1][0];
        low.set(parent, Math.min(low.get(parent), low.get(node)));
      }
      if (low.get(node) === indices.get(node)) {
        const component = [];
        let member;
        do {
          member = stack.pop();
          onStack.delete(member);
          component.push(member);
        } while (member !== node);
        result.push(component);
      }
    }
  }
  return result;
}

/**
 * A simple loop of more than MAX files inside one component, if there is one (a bounded depth-first search: a
 * component too tangled to search within the budget is reported whole).
 */
function longLoop(component) {
  const members = new Set(component);
  let budget = 2_000_000;
  for (const start of component) {
    const path = [start];
    const onPath = new Set(path);
    const found = (function search(node) {
      for (const next of graph.get(node) ?? []) {
        if (--budget < 0) return 'budget';
        if (!members.has(next)) continue;
        if (next === start && path.length > MAX) return [...path, start];
        if (onPath.has(next) || next < start) continue;
        path.push(next);
        onPath.add(next);
        const deeper = search(next);
        if (deeper) return deeper;
        path.pop();
        onPath.delete(next);
      }
      return null;
    })(start);
    if (found === 'budget') return [...component, component[0]];
    if (found) return found;
  }
  return null;
}

const show = (path) => relative(ROOT, path);
const loops = components()
  .filter((c) => c.length > MAX)
  .map((c) => ({ size: c.length, loop: longLoop(c) }))
  .filter((c) => c.loop);
if (loops.length) {
  for (const { size, loop } of loops) {
    process.stderr.write(
      `Import loop of ${loop.length - 1} files (in a group of ${size} that import one another):\n  ${loop.map(show).join('\n  → ')}\n`,
    );
  }
  process.stderr.write(`${loops.length} import loop(s) of more than ${MAX} files in ${files.length} files.\n`);
  process.exit(1);
}
process.stdout.write(`No import loop of more than ${MAX} files in ${files.length} files.\n`);
