import {
  changeOwnerInput,
  createProjectInput,
  listProjectsQuery,
  PROJECT_TRANSITIONS,
  type ProjectAction,
  projectListOutput,
  projectOutput,
  retentionInput,
  updateProjectInput,
} from '@emolens/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { currentUser } from '../../http/security.ts';
import { sweepDeletedFiles } from '../media/media.service.ts';
import {
  changeOwner,
  createProject,
  deleteProject,
  getProject,
  listProjects,
  setRetention,
  transitionProject,
  updateProject,
} from './projects.service.ts';

const idParams = z.object({ id: z.string().max(64) });

export function projectsRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  const deps = ctx.deps;
  return async (app) => {
    app.get(
      '/cabinet/projects/',
      {
        schema: {
          tags: ['projects'],
          summary: 'Projects the user may see',
          querystring: listProjectsQuery,
          response: { 200: projectListOutput },
        },
      },
      async (request) => listProjects(deps, currentUser(request).user, request.query),
    );

    app.post(
      '/cabinet/projects/',
      {
        schema: {
          tags: ['projects'],
          summary: 'Creates a draft project',
          body: createProjectInput,
          response: { 201: projectOutput },
        },
      },
      async (request, reply) =>
        reply.status(201).send(await createProject(deps, currentUser(request).user, request.body)),
    );

    app.get(
      '/cabinet/projects/:id/',
      { schema: { tags: ['projects'], summary: 'One project', params: idParams, response: { 200: projectOutput } } },
      async (request) => getProject(deps, currentUser(request).user, request.params.id),
    );

    app.patch(
      '/cabinet/projects/:id/',
      {
        schema: {
          tags: ['projects'],
          summary: 'Edits a draft or active project; 409 when it changed since `updated_at`',
          params: idParams,
          body: updateProjectInput,
          response: { 200: projectOutput },
        },
      },
      async (request) => updateProject(deps, currentUser(request).user, request.params.id, request.body),
    );

    app.patch(
      '/cabinet/projects/:id/retention/',
      {
        schema: {
          tags: ['projects'],
          summary:
            'Sets what happens to respondent data: keep, delete recordings after processing, or all after N days',
          params: idParams,
          body: retentionInput,
          response: { 200: projectOutput },
        },
      },
      async (request) => setRetention(deps, currentUser(request).user, request.params.id, request.body),
    );

    app.delete(
      '/cabinet/projects/:id/',
      { schema: { tags: ['projects'], summary: 'Deletes a draft project, irreversibly', params: idParams } },
      async (request, reply) => {
        await deleteProject(deps, currentUser(request).user, request.params.id);
        // Its files went with it; their stored bytes follow (the hourly job retries what fails).
        await sweepDeletedFiles(deps);
        return reply.status(204).send();
      },
    );

    for (const action of Object.keys(PROJECT_TRANSITIONS) as ProjectAction[]) {
      app.post(
        `/cabinet/projects/:id/${action}/`,
        {
          schema: {
            tags: ['projects'],
            summary: `${action[0]?.toUpperCase()}${action.slice(1)}s the project (from ${PROJECT_TRANSITIONS[action].from.join(' or ')})`,
            params: idParams,
            response: { 200: projectOutput },
          },
        },
        async (request) => transitionProject(deps, currentUser(request).user, request.params.id, action),
      );
    }

    app.post(
      '/cabinet/projects/:id/change-owner/',
      {
        schema: {
          tags: ['projects'],
          summary: 'Hands the project to another user by public id; the old owner loses access',
          params: idParams,
          body: changeOwnerInput,
          response: { 200: projectOutput },
        },
      },
      async (request) => changeOwner(deps, currentUser(request).user, request.params.id, request.body),
    );
  };
}
