import {
  createReportInput,
  gazePlotOutput,
  gazePlotQuery,
  playbackOutput,
  poolableResearchesOutput,
  type ReportOutput,
  reportAreasInput,
  reportExportQuery,
  reportGuidanceOutput,
  reportListOutput,
  reportOutput,
  reportSummarySchema,
  taskMarksInput,
  taskStatisticsOutput,
} from '@emolens/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { currentUser } from '../../http/security.ts';
import { reportGuidance } from '../guidance/guidance.service.ts';
import { sendAttachment } from '../media/serving.ts';
import { exportReport } from './report-exports.service.ts';
import {
  cancelReport,
  createReport,
  deleteReport,
  gazePlot,
  listReports,
  openReport,
  playback,
  poolableResearches,
  rebuildReport,
  setReportAreas,
} from './reports.service.ts';
import { setTaskMarks, taskStatistics } from './tasks/task-statistics.service.ts';

const idParams = z.object({ id: z.string().max(64) });
const tags = ['reports'];

/** Reports of a research: definitions, builds, the snapshot and its exports. */
export function reportsRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  const deps = ctx.deps;
  return async (app) => {
    app.get(
      '/campaigns/:id/reports/',
      {
        schema: {
          tags,
          summary: "The research's reports, newest first",
          params: idParams,
          response: { 200: reportListOutput },
        },
      },
      async (request) => listReports(deps, currentUser(request).user, request.params.id),
    );
    app.post(
      '/campaigns/:id/reports/',
      {
        schema: {
          tags,
          summary: 'Creates a report and queues its build',
          params: idParams,
          body: createReportInput,
          response: { 201: reportSummarySchema },
        },
      },
      async (request, reply) =>
        reply.status(201).send(await createReport(deps, currentUser(request).user, request.params.id, request.body)),
    );
    app.get(
      '/campaigns/:id/reports/researches/',
      {
        schema: {
          tags,
          summary: "The project's other researches with this one's content type, which a report may pool",
          params: idParams,
          response: { 200: poolableResearchesOutput },
        },
      },
      async (request) => poolableResearches(deps, currentUser(request).user, request.params.id),
    );
    app.get(
      '/campaigns/:id/task-statistics/',
      {
        schema: {
          tags,
          summary:
            "A website-prototype research's tasks: results, times, clicks, paths, click maps and each run's mark",
          params: idParams,
          response: { 200: taskStatisticsOutput },
        },
      },
      async (request) => taskStatistics(deps, currentUser(request).user, request.params.id),
    );
    app.put(
      '/campaigns/:id/task-marks/',
      {
        schema: {
          tags,
          summary: "Marks respondents' task results: not marked, accepted, rejected or failed",
          params: idParams,
          body: taskMarksInput,
          response: { 200: taskStatisticsOutput },
        },
      },
      async (request) => setTaskMarks(deps, currentUser(request).user, request.params.id, request.body),
    );
    app.get(
      '/reports/:id/',
      {
        schema: {
          tags,
          summary: 'The report with its snapshot (null until built); marks it accessed',
          params: idParams,
          response: { 200: reportOutput },
        },
      },
      async (request, reply) => {
        const json = await openReport(deps, currentUser(request).user, request.params.id);
        // Already the schema's JSON: Fastify sends a string as it is, without the serialiser's second pass.
        return reply.type('application/json; charset=utf-8').send(json as unknown as ReportOutput);
      },
    );
    app.get(
      '/reports/:id/guidance/',
      {
        schema: {
          tags,
          summary: "The live guidance of the report's sessions: seconds each face problem was shown (decision 045)",
          params: idParams,
          response: { 200: reportGuidanceOutput },
        },
      },
      async (request) => reportGuidance(deps, currentUser(request).user, request.params.id),
    );
    app.post(
      '/reports/:id/rebuild/',
      {
        schema: { tags, summary: 'Builds the report again', params: idParams, response: { 200: reportSummarySchema } },
      },
      async (request) => rebuildReport(deps, currentUser(request).user, request.params.id),
    );
    app.put(
      '/reports/:id/areas/',
      {
        schema: {
          tags,
          summary: "Sets the areas of interest drawn on the report's images and builds it again with them",
          params: idParams,
          body: reportAreasInput,
          response: { 200: reportSummarySchema },
        },
      },
      async (request) => setReportAreas(deps, currentUser(request).user, request.params.id, request.body),
    );
    app.post(
      '/reports/:id/cancel/',
      {
        schema: { tags, summary: "Stops the report's build", params: idParams, response: { 200: reportSummarySchema } },
      },
      async (request) => cancelReport(deps, currentUser(request).user, request.params.id),
    );
    app.delete(
      '/reports/:id/',
      { schema: { tags, summary: 'Deletes a report (not while it is built)', params: idParams } },
      async (request, reply) => {
        await deleteReport(deps, currentUser(request).user, request.params.id);
        return reply.status(204).send();
      },
    );
    app.get(
      '/reports/:id/gaze-plot/',
      {
        schema: {
          tags,
          summary: "One of the report's respondents' fixations on one item, in order (a gaze plot)",
          params: idParams,
          querystring: gazePlotQuery,
          response: { 200: gazePlotOutput },
        },
      },
      async (request) => gazePlot(deps, currentUser(request).user, request.params.id, request.query),
    );
    app.get(
      '/reports/:id/playback/',
      {
        schema: {
          tags,
          summary:
            "One of the report's respondents on one item: their gaze over time and their recording's kept segments",
          params: idParams,
          querystring: gazePlotQuery,
          response: { 200: playbackOutput },
        },
      },
      async (request) => playback(deps, currentUser(request).user, request.params.id, request.query),
    );
    app.get(
      '/reports/:id/export/',
      {
        schema: {
          tags,
          summary: 'Per-second curves with bands, the respondents, or per-respondent series as XLSX or CSV',
          params: idParams,
          querystring: reportExportQuery,
        },
      },
      async (request, reply) => {
        return sendAttachment(
          reply,
          await exportReport(deps, currentUser(request).user, request.params.id, request.query),
        );
      },
    );
  };
}
