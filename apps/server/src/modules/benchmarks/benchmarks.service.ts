import {
  type BenchmarkBaseOutput,
  type BenchmarksOutput,
  CATEGORY_KINDS,
  type CategoriesOutput,
  type ContentType,
  type createCategoryInput,
  type MessageKey,
  NORM_FILE_FORMAT,
  type NormFile,
  type normImportInput,
  type renameCategoryInput,
} from '@emolens/contracts';
import type { z } from 'zod';
import type { Deps } from '../../context.ts';
import type { ResearchCategories, User } from '../../db/types.ts';
import { AppError } from '../../http/errors.ts';
import { canManageCategories, requireCategoriesManager } from '../access/access.ts';

/**
 * The categories directory and norm bases (issue 13, item 7; decision 016). Every cabinet user reads the directory
 * (a research's categories are chosen from it); categorizer admins and super users change it, and export and
 * import norm bases.
 */
export type BenchmarksDeps = Pick<Deps, 'benchmarks'>;

/** GET /api/cabinet/categories/ */
export async function listCategories(deps: BenchmarksDeps, user: User): Promise<CategoriesOutput> {
  return { entries: await deps.benchmarks.categories(), can: { manage: canManageCategories(user) } };
}

const taken = () => new AppError('conflict', { message: 'category.exists', fields: { name: 'category.exists' } });

/** POST /api/cabinet/categories/ */
export async function createCategory(deps: BenchmarksDeps, user: User, input: z.infer<typeof createCategoryInput>) {
  requireCategoriesManager(user);
  const created = await deps.benchmarks.createCategory(input, user.id);
  if (!created) throw taken();
  return created;
}

/** PATCH /api/cabinet/categories/{id}/ — the researches that used the old name follow it. */
export async function renameCategory(
  deps: BenchmarksDeps,
  user: User,
  id: string,
  input: z.infer<typeof renameCategoryInput>,
): Promise<void> {
  requireCategoriesManager(user);
  const outcome = await deps.benchmarks.renameCategory(id, input.name);
  if (outcome === 'missing') throw new AppError('not_found', { message: 'category.notFound' });
  if (outcome === 'taken') throw taken();
}

/** DELETE /api/cabinet/categories/{id}/ — only a value no research uses. */
export async function deleteCategory(deps: BenchmarksDeps, user: User, id: string): Promise<void> {
  requireCategoriesManager(user);
  const entry = await deps.benchmarks.category(id);
  if (!entry) throw new AppError('not_found', { message: 'category.notFound' });
  if ((await deps.benchmarks.usage(entry.kind, entry.name)) > 0) {
    throw new AppError('invalid_state', { message: 'category.inUse' });
  }
  await deps.benchmarks.deleteCategory(id);
}

/**
 * A research's categories as it saves them: each value it changes must be in the directory (case aside; stored as
 * the directory spells it), and the subtype of the research's content type, also when the content type changes.
 * Values it keeps are not checked again, so a research made before the directory still saves. Field errors are
 * keyed `categories.<kind>`.
 */
export async function checkedCategories(
  deps: BenchmarksDeps,
  changes: Partial<ResearchCategories>,
  current: { categories: ResearchCategories; content_type: ContentType } | null,
  contentType: ContentType,
): Promise<{ categories: Partial<ResearchCategories>; fields: Record<string, MessageKey> }> {
  const fields: Record<string, MessageKey> = {};
  const categories: Partial<ResearchCategories> = {};
  const retyped = current !== null && current.content_type !== contentType;
  for (const kind of CATEGORY_KINDS) {
    const value = changes[kind] ?? (kind === 'subtype' && retyped ? current.categories.subtype : undefined);
    if (value === undefined) continue;
    const kept = value === current?.categories[kind] && !(kind === 'subtype' && retyped);
    if (value === '' || kept) {
      categories[kind] = value;
      continue;
    }
    const entry = await deps.benchmarks.categoryNamed(kind, value);
    if (!entry) fields[`categories.${kind}`] = 'category.unknown';
    else if (kind === 'subtype' && entry.content_type !== contentType) {
      fields[`categories.${kind}`] = 'category.subtypeContentType';
    } else categories[kind] = entry.name;
  }
  return { categories, fields };
}

/** GET /api/public/benchmark-base/ — the size of the benchmark base, for the public pages (no login). */
export async function benchmarkBase(deps: BenchmarksDeps): Promise<BenchmarkBaseOutput> {
  return { creatives: await deps.benchmarks.baseSize() };
}

/** GET /api/cabinet/benchmarks/ */
export async function benchmarksSummary(deps: BenchmarksDeps, user: User): Promise<BenchmarksOutput> {
  const [{ own, imported }, imports] = await Promise.all([deps.benchmarks.bases(), deps.benchmarks.imports()]);
  const bases = new Map<string, BenchmarksOutput['bases'][number]>();
  const entry = (content_type: ContentType, subtype: string) => {
    const key = `${content_type}\u0000${subtype.toLowerCase()}`;
    const found = bases.get(key) ?? { content_type, subtype, researches: 0, imported: 0 };
    bases.set(key, found);
    return found;
  };
  for (const row of own) entry(row.content_type, row.subtype).researches += row.n;
  for (const row of imported) entry(row.content_type, row.subtype).imported += row.n;
  return {
    bases: [...bases.values()].sort(
      (a, b) => a.subtype.localeCompare(b.subtype) || a.content_type.localeCompare(b.content_type),
    ),
    imports: imports.map((i) => ({ ...i, imported_at: i.imported_at.toISOString() })),
    can: { manage: canManageCategories(user) },
  };
}

/** GET /api/cabinet/benchmarks/export/ — this installation's completed researches as a norm base file. */
export async function exportNorms(deps: BenchmarksDeps, user: User): Promise<NormFile> {
  requireCategoriesManager(user);
  const entries = await deps.benchmarks.ownNorms();
  return { format: NORM_FILE_FORMAT, version: 1, exported_at: new Date().toISOString(), entries };
}

/** POST /api/cabinet/benchmarks/imports/ */
export async function importNorms(deps: BenchmarksDeps, user: User, input: z.infer<typeof normImportInput>) {
  requireCategoriesManager(user);
  const id = await deps.benchmarks.importNorms(input.name, user.id, input.file.entries);
  return { id, entries: input.file.entries.length };
}

/** DELETE /api/cabinet/benchmarks/imports/{id}/ */
export async function deleteNormImport(deps: BenchmarksDeps, user: User, id: string): Promise<void> {
  requireCategoriesManager(user);
  if (!(await deps.benchmarks.deleteImport(id)))
    throw new AppError('not_found', { message: 'benchmark.importNotFound' });
}
