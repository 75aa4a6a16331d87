import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { createReportInput } from '@emolens/contracts';
import openapiTS, { astToString } from 'openapi-typescript';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PUBLIC_OPERATIONS } from './http/security.ts';
import { createTestApp, loggedIn, TEST_BACKEND, type TestApp } from './test/harness.ts';

/**
 * The OpenAPI document states what every operation takes (issue 28, item 21), so a client generated from it sends
 * the right credentials: the cabinet's session cookie (and CSRF header on unsafe methods), the report builder's API
 * token, a respondent session's secret, or nothing for the public operations.
 */
type Requirement = Record<string, string[]>;
interface Document {
  paths: Record<string, Record<string, { security?: Requirement[] }>>;
}

let t: TestApp;
let doc: Document;
beforeAll(async () => {
  t = await createTestApp({ rateLimitPerMinute: 1_000_000 });
  doc = (await t.app.inject({ method: 'GET', url: '/api/docs/json' })).json();
});
afterAll(() => t?.close());

const operations = () =>
  Object.entries(doc.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, op]) => ({ method: method.toUpperCase(), path, security: op.security })),
  );
/** `/api/things/{id}/` as Fastify names the route: `/api/things/:id/`. */
const routeUrl = (path: string) => path.replace(/\{(\w+)\}/g, ':$1');

describe(`the security of every operation in the OpenAPI document on ${TEST_BACKEND}`, () => {
  it('is stated for every operation, by the surface it is on', async () => {
    const all = operations();
    expect(all.length).toBeGreaterThan(150);
    const wrong: string[] = [];
    const expect_ = (op: (typeof all)[number], wanted: Requirement[]) => {
      if (JSON.stringify(op.security) !== JSON.stringify(wanted))
        wrong.push(`${op.method} ${op.path}: ${JSON.stringify(op.security)}, not ${JSON.stringify(wanted)}`);
    };
    for (const op of all) {
      const unsafe = op.method !== 'GET';
      if (op.path.startsWith('/api/')) {
        if (PUBLIC_OPERATIONS.has(`${op.method} ${routeUrl(op.path)}`)) expect_(op, unsafe ? [{ csrf: [] }] : []);
        else expect_(op, [unsafe ? { session: [], csrf: [] } : { session: [] }]);
      } else if (op.path.startsWith('/report_builder/api/')) {
        expect_(op, [{ apiToken: [] }]);
      } else if (/^\/r\/(sessions|dot-tests)\/\{id\}/.test(op.path)) {
        expect_(op, [{ respondentSecret: [] }]);
      } else {
        expect_(op, []);
      }
    }
    expect(wrong, wrong.join('\n')).toEqual([]);
    // Each surface is there: the cabinet's, the report builder's, and the respondent's public and secret ones.
    const paths = all.map((op) => `${op.method} ${op.path}`);
    for (const name of [
      'GET /api/auth/csrf/',
      'POST /api/auth/login/',
      'GET /report_builder/api/campaigns/{id}/reports/',
      'GET /r/links/{token}',
      'POST /r/sessions/{id}/complete',
      'GET /healthz',
    ]) {
      expect(paths).toContain(name);
    }
  });
});

/**
 * A client generated from the served document: openapi-typescript's types, type-checked with a program that calls the
 * report builder through openapi-fetch; then the program run against the app over HTTP with an API token, which it
 * sends where the document says an operation takes it (and refuses to call an operation that states nothing).
 */
describe(`a client generated from the OpenAPI document on ${TEST_BACKEND}`, () => {
  let dir: string;
  beforeAll(async () => {
    // Inside the checkout, so the program finds openapi-fetch and tsx where the project installed them.
    const scratch = resolve(import.meta.dirname, '../../../.tmp');
    await mkdir(scratch, { recursive: true });
    dir = await mkdtemp(join(scratch, 'openapi-client-'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  const CLIENT = `import createClient from 'openapi-fetch';
import type { paths } from './api.ts';
import document from './openapi.json' with { type: 'json' };

type Requirement = Record<string, string[]>;
const operations = document.paths as Record<string, Record<string, { security?: Requirement[] }>>;
const token = process.env.API_TOKEN ?? '';

const client = createClient<paths>({ baseUrl: process.env.BASE_URL });
// The credentials each operation takes, as the document states them.
client.use({
  onRequest({ request, schemaPath }) {
    const security = operations[schemaPath]?.[request.method.toLowerCase()]?.security;
    if (!security) throw new Error(\`\${request.method} \${schemaPath} states no security\`);
    if (security.some((requirement) => 'apiToken' in requirement)) {
      request.headers.set('authorization', \`Token \${token}\`);
    }
    return request;
  },
});

const researches = await client.GET('/report_builder/api/campaigns/', { params: { query: { page_size: 10 } } });
if (!researches.data) throw new Error(\`campaigns: \${researches.response.status}\`);
const research: string = researches.data.items[0]?.id ?? '';
const reports = await client.GET('/report_builder/api/campaigns/{id}/reports/', { params: { path: { id: research } } });
if (!reports.data) throw new Error(\`reports: \${reports.response.status} \${JSON.stringify(reports.error)}\`);
const names: string[] = reports.data.map((report) => report.name);
console.log(JSON.stringify({ research, names }));
`;

  it('type-checks, and calls the report builder with an API token over HTTP', { timeout: 240_000 }, async () => {
    // Generated from the document as served.
    const served = await t.app.inject({ method: 'GET', url: '/api/docs/json' });
    await writeFile(join(dir, 'openapi.json'), served.body);
    await writeFile(join(dir, 'api.ts'), astToString(await openapiTS(served.json())));
    await writeFile(join(dir, 'client.ts'), CLIENT);

    const program = ts.createProgram([join(dir, 'client.ts')], {
      strict: true,
      noEmit: true,
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.ESNext,
      moduleResolution: ts.ModuleResolutionKind.Bundler,
      resolveJsonModule: true,
      allowImportingTsExtensions: true,
      skipLibCheck: true,
      lib: ['lib.es2022.d.ts', 'lib.dom.d.ts'],
      types: ['node'],
    });
    const problems = ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
    expect(problems).toEqual([]);

    // A user with a research and a report, and their API token.
    const { alice } = await loggedIn(t.app, 'alice');
    const project = await alice.draftProject();
    await alice.readyToLaunch(project);
    const [research] = (await alice.request('GET', `/api/cabinet/campaigns/?project_id=${project}`)).json().items;
    // Written straight to the table (a build needs processed respondents, which are not the point here).
    const report = createReportInput.parse({ name: 'Launch wave' });
    await t.app.ctx.database.db
      .insertInto('reports')
      .values({
        campaign_id: research.id,
        created_by: null,
        name: report.name,
        type: report.type,
        step: report.step,
        filters: JSON.stringify(report.filters),
        segment: JSON.stringify(report.segment),
        fixations: JSON.stringify(report.fixations),
        status: 'in_progress',
      })
      .execute();
    const made = await alice.request('POST', '/api/users/api-access/access-api-token/', {
      body: { scope: 'report_builder' },
    });
    expect(made.statusCode, made.body).toBe(201);

    const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const run = await promisify(execFile)(process.execPath, ['--import', 'tsx', join(dir, 'client.ts')], {
      cwd: dir,
      env: { ...process.env, BASE_URL: address, API_TOKEN: made.json().token },
    });
    expect(JSON.parse(run.stdout)).toEqual({ research: research.id, names: ['Launch wave'] });
  });
});
