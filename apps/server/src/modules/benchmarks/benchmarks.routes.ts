import {
  benchmarkBaseOutput,
  benchmarksOutput,
  categoriesOutput,
  createCategoryInput,
  normImportInput,
  renameCategoryInput,
} from '@emolens/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { currentUser } from '../../http/security.ts';
import { sendAttachment } from '../media/serving.ts';
import {
  benchmarkBase,
  benchmarksSummary,
  createCategory,
  deleteCategory,
  deleteNormImport,
  exportNorms,
  importNorms,
  listCategories,
  renameCategory,
} from './benchmarks.service.ts';

const idParams = z.object({ id: z.string().max(64) });
const tags = ['benchmarks'];
/** A norm base file of NORM_FILE_LIMIT entries is about 4 MB of JSON. */
const IMPORT_BODY_LIMIT = 8 * 1024 * 1024;

/** The categories directory and the benchmarks' norm bases. */
export function benchmarksRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  const deps = ctx.deps;
  return async (app) => {
    app.get(
      '/public/benchmark-base/',
      {
        schema: {
          tags,
          summary: 'How many creatives the benchmark bases hold (no login; for the public pages)',
          response: { 200: benchmarkBaseOutput },
        },
      },
      async () => benchmarkBase(deps),
    );
    app.get(
      '/cabinet/categories/',
      {
        schema: {
          tags,
          summary: "The categories directory a research's categories are chosen from",
          response: { 200: categoriesOutput },
        },
      },
      async (request) => listCategories(deps, currentUser(request).user),
    );
    app.post(
      '/cabinet/categories/',
      {
        schema: {
          tags,
          summary: 'Adds a value to the directory (categorizer admins and super users)',
          body: createCategoryInput,
          response: { 201: z.object({ id: z.uuid() }) },
        },
      },
      async (request, reply) =>
        reply.status(201).send(await createCategory(deps, currentUser(request).user, request.body)),
    );
    app.patch(
      '/cabinet/categories/:id/',
      {
        schema: {
          tags,
          summary: 'Renames a value; the researches that use it follow',
          params: idParams,
          body: renameCategoryInput,
        },
      },
      async (request, reply) => {
        await renameCategory(deps, currentUser(request).user, request.params.id, request.body);
        return reply.status(204).send();
      },
    );
    app.delete(
      '/cabinet/categories/:id/',
      { schema: { tags, summary: 'Removes a value no research uses', params: idParams } },
      async (request, reply) => {
        await deleteCategory(deps, currentUser(request).user, request.params.id);
        return reply.status(204).send();
      },
    );
    app.get(
      '/cabinet/benchmarks/',
      {
        schema: {
          tags,
          summary: 'Benchmark bases by subtype and content type, and the imported norm bases',
          response: { 200: benchmarksOutput },
        },
      },
      async (request) => benchmarksSummary(deps, currentUser(request).user),
    );
    app.get(
      '/cabinet/benchmarks/export/',
      { schema: { tags, summary: "This installation's completed researches as a norm base file (JSON)" } },
      async (request, reply) => {
        const file = await exportNorms(deps, currentUser(request).user);
        return sendAttachment(reply, {
          filename: `emolens-norms-${file.exported_at.slice(0, 10)}.json`,
          type: 'application/json; charset=utf-8',
          body: JSON.stringify(file, null, 1),
        });
      },
    );
    app.post(
      '/cabinet/benchmarks/imports/',
      {
        bodyLimit: IMPORT_BODY_LIMIT,
        schema: {
          tags,
          summary: 'Imports a norm base file',
          body: normImportInput,
          response: { 201: z.object({ id: z.uuid(), entries: z.number().int() }) },
        },
      },
      async (request, reply) =>
        reply.status(201).send(await importNorms(deps, currentUser(request).user, request.body)),
    );
    app.delete(
      '/cabinet/benchmarks/imports/:id/',
      { schema: { tags, summary: 'Removes an imported norm base', params: idParams } },
      async (request, reply) => {
        await deleteNormImport(deps, currentUser(request).user, request.params.id);
        return reply.status(204).send();
      },
    );
  };
}
