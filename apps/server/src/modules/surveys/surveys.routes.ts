import {
  createSurveyInput,
  surveyExportInput,
  surveyListOutput,
  surveyListQuery,
  surveyOutput,
  surveyStatisticsInput,
  surveyStatisticsOutput,
  updateSurveyInput,
} from '@emolens/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { currentUser } from '../../http/security.ts';
import { sendAttachment } from '../media/serving.ts';
import { surveyExport, surveyStatistics } from './survey-statistics.service.ts';
import { copySurvey, createSurvey, deleteSurvey, getSurvey, listSurveys, updateSurvey } from './surveys.service.ts';

const idParams = z.object({ id: z.string().max(64) });

/** Questionnaires (screeners and surveys): the cabinet's editor, and the whole questionnaire of spec section 7. */
export function surveysRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  const deps = ctx.deps;
  return async (app) => {
    const tags = ['questionnaires'];

    app.get(
      '/cabinet/surveys/',
      {
        schema: {
          tags,
          summary: "The user's questionnaires (staff: everyone's), newest change first",
          querystring: surveyListQuery,
          response: { 200: surveyListOutput },
        },
      },
      async (request) => ({ items: await listSurveys(deps, currentUser(request).user, request.query) }),
    );
    app.post(
      '/cabinet/surveys/',
      {
        schema: {
          tags,
          summary: 'Creates a screener or a survey',
          body: createSurveyInput,
          response: { 201: surveyOutput },
        },
      },
      async (request, reply) =>
        reply.status(201).send(await createSurvey(deps, currentUser(request).user, request.body)),
    );
    app.get(
      '/cabinet/surveys/:id/',
      {
        schema: {
          tags,
          summary: 'One questionnaire, with where it is used',
          params: idParams,
          response: { 200: surveyOutput },
        },
      },
      async (request) => getSurvey(deps, currentUser(request).user, request.params.id),
    );
    app.patch(
      '/cabinet/surveys/:id/',
      {
        schema: {
          tags,
          summary: 'Saves a questionnaire; 409 when changed since `updated_at` or frozen by a launched project',
          params: idParams,
          body: updateSurveyInput,
          response: { 200: surveyOutput },
        },
      },
      async (request) => updateSurvey(deps, currentUser(request).user, request.params.id, request.body),
    );
    app.delete(
      '/cabinet/surveys/:id/',
      { schema: { tags, summary: 'Deletes a questionnaire no scenario uses', params: idParams } },
      async (request, reply) => {
        await deleteSurvey(deps, currentUser(request).user, request.params.id);
        return reply.status(204).send();
      },
    );
    app.post(
      '/cabinet/surveys/:id/copy/',
      {
        schema: {
          tags,
          summary: 'Copies a questionnaire: same content, no links, title "… (copy)"',
          params: idParams,
          response: { 201: surveyOutput },
        },
      },
      async (request, reply) =>
        reply.status(201).send(await copySurvey(deps, currentUser(request).user, request.params.id)),
    );
    app.post(
      '/cabinet/campaigns/:id/survey-statistics/',
      {
        schema: {
          tags,
          summary:
            "Statistics of the research's screener or survey per question, over the respondents the filter takes",
          params: idParams,
          body: surveyStatisticsInput,
          response: { 200: surveyStatisticsOutput },
        },
      },
      async (request) => surveyStatistics(deps, currentUser(request).user, request.params.id, request.body),
    );
    app.post(
      '/cabinet/campaigns/:id/survey-statistics/export/',
      {
        schema: {
          tags,
          summary: 'The answers as XLSX or CSV: one row per respondent, one column per answer',
          params: idParams,
          body: surveyExportInput,
        },
      },
      async (request, reply) => {
        return sendAttachment(
          reply,
          await surveyExport(deps, currentUser(request).user, request.params.id, request.body),
        );
      },
    );
    app.get(
      '/surveys-manager/surveys/:id',
      {
        schema: {
          tags,
          summary: 'The questionnaire whole (spec section 7)',
          params: idParams,
          response: { 200: surveyOutput },
        },
      },
      async (request) => getSurvey(deps, currentUser(request).user, request.params.id),
    );
  };
}
