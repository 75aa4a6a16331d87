import { accountLicenceOutput, addPackageInput, ledgerOutput, ledgerQuery, licenceOutput } from '@emolens/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { currentUser } from '../../http/security.ts';
import { accountLicence, addPackage, licenceHistory, myLicence } from './licences.service.ts';

const accountParams = z.object({ publicId: z.string().max(32) });
const tags = ['licences'];

/** The account's licence and session accounting; staff add packages to any account (issue 15, item 3). */
export function licencesRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  const deps = ctx.deps;
  return async (app) => {
    app.get(
      '/cabinet/licences/',
      {
        schema: {
          tags,
          summary: "The account's session balance, packages and consumption per project",
          response: { 200: licenceOutput },
        },
      },
      async (request) => myLicence(deps, currentUser(request).user),
    );
    app.get(
      '/cabinet/licences/history/',
      {
        schema: {
          tags,
          summary: 'Packages added and sessions consumed, newest first',
          querystring: ledgerQuery,
          response: { 200: ledgerOutput },
        },
      },
      async (request) => licenceHistory(deps, currentUser(request).user, request.query),
    );
    app.get(
      '/cabinet/licences/accounts/:publicId/',
      {
        schema: {
          tags,
          summary: "An account's licence, by its public user id (staff)",
          params: accountParams,
          response: { 200: accountLicenceOutput },
        },
      },
      async (request) => accountLicence(deps, currentUser(request).user, request.params.publicId),
    );
    app.post(
      '/cabinet/licences/accounts/:publicId/packages/',
      {
        schema: {
          tags,
          summary: 'Adds a licence package (or additional packages of 100 sessions) to an account (staff)',
          params: accountParams,
          body: addPackageInput,
          response: { 201: accountLicenceOutput },
        },
      },
      async (request, reply) => {
        const user = currentUser(request).user;
        await addPackage(deps, user, request.params.publicId, request.body);
        return reply.status(201).send(await accountLicence(deps, user, request.params.publicId));
      },
    );
  };
}
