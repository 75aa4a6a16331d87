import { z } from 'zod';
import { msg } from './messages.ts';
import { CONTENT_TYPES, categoriesSchema } from './researches.ts';

/**
 * The categories directory (issue 13, item 7; spec sections 3, 5, 6). A research's categories are chosen from a
 * directory that categorizer admins and super users maintain; a subtype belongs to one content type (the spec:
 * "the benchmark subtype must have the same content type as the research"). Benchmarks are in `reports.ts`.
 */

/** The research's category fields, in the form's order. */
export const CATEGORY_KINDS = Object.keys(categoriesSchema.shape) as (keyof z.infer<typeof categoriesSchema>)[];
export type CategoryKind = (typeof CATEGORY_KINDS)[number];

export const categoryName = z
  .string({ error: msg('validation.required') })
  .trim()
  .min(1, msg('validation.required'))
  .max(255, msg('validation.maxChars', { max: 255 }));

export const categoryEntrySchema = z.object({
  id: z.uuid(),
  kind: z.enum(CATEGORY_KINDS),
  name: z.string(),
  /** A subtype's content type; null for every other kind. */
  content_type: z.enum(CONTENT_TYPES).nullable(),
  /** Researches whose categories use the value. */
  used_by: z.number().int(),
});
export type CategoryEntry = z.infer<typeof categoryEntrySchema>;

/** GET /api/cabinet/categories/ */
export const categoriesOutput = z.object({
  entries: z.array(categoryEntrySchema),
  can: z.object({ manage: z.boolean() }),
});
export type CategoriesOutput = z.infer<typeof categoriesOutput>;

/** POST /api/cabinet/categories/ */
export const createCategoryInput = z
  .strictObject({
    kind: z.enum(CATEGORY_KINDS, msg('validation.choice')),
    name: categoryName,
    content_type: z.enum(CONTENT_TYPES, msg('validation.choice')).nullable().default(null),
  })
  .superRefine((value, ctx) => {
    if (value.kind === 'subtype' && !value.content_type) {
      ctx.addIssue({ code: 'custom', path: ['content_type'], message: msg('category.contentTypeRequired') });
    }
  })
  .transform((value) => ({ ...value, content_type: value.kind === 'subtype' ? value.content_type : null }));
export type CreateCategoryInput = z.input<typeof createCategoryInput>;

/** PATCH /api/cabinet/categories/{id}/ — a rename; the researches that use the old name follow it. */
export const renameCategoryInput = z.strictObject({ name: categoryName });
