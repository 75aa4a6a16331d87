import type { FastifyInstance } from 'fastify';

/** The part of JSON Schema (as @fastify/swagger emits it from the zod contracts) the tests read. */
export interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  enum?: unknown[];
  const?: unknown;
  format?: string;
  pattern?: string;
  minLength?: number;
  minimum?: number;
  maximum?: number;
  minItems?: number;
  nullable?: boolean;
}

export type HttpMethod = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';

export interface Operation {
  method: HttpMethod;
  /** As the document spells it, with `{name}` placeholders. */
  path: string;
  pathParams: string[];
  queryParams: { name: string; schema: JsonSchema }[];
  body: JsonSchema | undefined;
  /** The security schemes the operation names (`respondentSecret` for a respondent session's calls). */
  security: string[];
}

interface OpenApiDocument {
  paths: Record<
    string,
    Record<
      string,
      {
        parameters?: { in: string; name: string; schema?: JsonSchema }[];
        requestBody?: { content: Record<string, { schema: JsonSchema }> };
        security?: Record<string, unknown>[];
      }
    >
  >;
}

/** Every operation of the OpenAPI document the app serves (what a client can call). */
export async function openApiOperations(app: FastifyInstance): Promise<Operation[]> {
  const res = await app.inject({ method: 'GET', url: '/api/docs/json' });
  if (res.statusCode !== 200) throw new Error(`OpenAPI document: ${res.statusCode}`);
  const doc = res.json() as OpenApiDocument;
  const operations: Operation[] = [];
  for (const [path, methods] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(methods)) {
      const parameters = op.parameters ?? [];
      operations.push({
        method: method.toUpperCase() as HttpMethod,
        path,
        pathParams: parameters.filter((p) => p.in === 'path').map((p) => p.name),
        queryParams: parameters.filter((p) => p.in === 'query').map((p) => ({ name: p.name, schema: p.schema ?? {} })),
        body: op.requestBody?.content['application/json']?.schema,
        security: (op.security ?? []).flatMap((s) => Object.keys(s)),
      });
    }
  }
  return operations;
}

/** The path with its placeholders filled in (values URL-encoded unless already encoded). */
export function fillPath(path: string, values: Record<string, string>, raw = false): string {
  return path.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = values[name];
    if (value === undefined) throw new Error(`no value for {${name}} in ${path}`);
    return raw ? value : encodeURIComponent(value);
  });
}

const types = (s: JsonSchema): string[] => (Array.isArray(s.type) ? s.type : s.type ? [s.type] : []);
const alternatives = (s: JsonSchema): JsonSchema[] => s.anyOf ?? s.oneOf ?? [];
const isNullOnly = (s: JsonSchema) => types(s).length === 1 && types(s)[0] === 'null';

/** A string schema, or a choice between string schemas (`url().or(literal(''))`). */
export function isStringSchema(s: JsonSchema): boolean {
  const alts = alternatives(s).filter((a) => !isNullOnly(a));
  if (alts.length) return alts.every(isStringSchema);
  return types(s).includes('string');
}

/** Fixture values by property name (ids of existing objects, the current `updated_at`, ...). */
export type Known = Record<string, unknown>;

const STRING_CANDIDATES = ['Fuzz', '1:2', 'a', '1'];

function sampleString(s: JsonSchema): string {
  if (s.enum?.length) return String(s.enum[0]);
  if (s.const !== undefined) return String(s.const);
  switch (s.format) {
    case 'uri':
      return 'https://example.com/';
    case 'date-time':
      return new Date().toISOString();
    case 'uuid':
      return '00000000-0000-4000-8000-000000000000';
    case 'email':
      return 'fuzz@example.com';
  }
  const pattern = s.pattern ? new RegExp(s.pattern, 'u') : undefined;
  const base = STRING_CANDIDATES.find((c) => !pattern || pattern.test(c)) ?? 'Fuzz';
  return base.padEnd(s.minLength ?? 0, base);
}

function sampleNumber(s: JsonSchema, integer: boolean): number {
  const min = s.minimum;
  const max = s.maximum;
  if (integer) {
    const lo = Math.max(Math.ceil(min ?? 1), 1);
    return max !== undefined && lo > max ? Math.ceil(min ?? 0) : lo;
  }
  if (min !== undefined && max !== undefined) return (min + max) / 2;
  return min ?? 1;
}

/**
 * A minimal valid value of the schema: required properties only, the fewest array items, the
 * first alternative; a property named in `known` takes the fixture value instead.
 */
export function sample(s: JsonSchema, known: Known = {}, name?: string): unknown {
  if (name !== undefined && name in known) {
    const value = known[name];
    const fits = Array.isArray(value)
      ? types(s).includes('array')
      : typeof value === 'number'
        ? types(s).includes('number')
        : isStringSchema(s);
    if (fits) return value;
  }
  const alts = alternatives(s).filter((a) => !isNullOnly(a));
  if (alts[0]) return sample(alts[0], known, name);
  if (s.allOf?.[0]) return sample(s.allOf[0], known, name);
  if (s.enum?.length) return s.enum[0];
  if (s.const !== undefined) return s.const;
  const t = types(s).filter((x) => x !== 'null');
  if (t.includes('object') || s.properties) {
    const out: Record<string, unknown> = {};
    for (const key of s.required ?? []) out[key] = sample(s.properties?.[key] ?? {}, known, key);
    return out;
  }
  if (t.includes('array')) {
    const count = s.minItems ?? 0;
    return Array.from({ length: count }, () => sample(s.items ?? {}, known, name));
  }
  if (t.includes('string')) return sampleString(s);
  if (t.includes('integer')) return sampleNumber(s, true);
  if (t.includes('number')) return sampleNumber(s, false);
  if (t.includes('boolean')) return false;
  return null;
}

/** One step from a value to a string inside it: a property or the first array item. */
export interface Step {
  key: string | number;
  /** The schema of the value reached (the alternative chosen, where there is a choice). */
  schema: JsonSchema;
  /** The property name the value belongs to (an array item keeps its array's name). */
  name: string;
}

/** Every string reachable in the schema (optional properties, array items and alternatives too). */
export function stringLeaves(s: JsonSchema, path: Step[] = [], name = ''): Step[][] {
  if (isStringSchema(s)) return path.length ? [path] : [];
  const alts = alternatives(s).filter((a) => !isNullOnly(a));
  if (alts.length) return alts.flatMap((a) => stringLeaves(a, path, name));
  if (s.allOf) return s.allOf.flatMap((a) => stringLeaves(a, path, name));
  const leaves: Step[][] = [];
  for (const [key, child] of Object.entries(s.properties ?? {})) {
    leaves.push(...stringLeaves(child, [...path, { key, schema: child, name: key }], key));
  }
  if (s.items) leaves.push(...stringLeaves(s.items, [...path, { key: 0, schema: s.items, name }], name));
  return leaves;
}

export const leafName = (steps: Step[]) => steps.map((s) => s.key).join('.');

/** The minimal valid body with the string at `steps` (its parents made as needed) set to `value`. */
export function bodyWith(root: JsonSchema, steps: Step[], value: string, known: Known): unknown {
  const body = sample(root, known) as Record<string | number, unknown>;
  let cur: Record<string | number, unknown> = body;
  steps.forEach((step, i) => {
    if (i === steps.length - 1) {
      cur[step.key] = value;
      return;
    }
    const wantArray = types(step.schema).includes('array');
    const existing = cur[step.key];
    const fits = wantArray ? Array.isArray(existing) : existing !== null && typeof existing === 'object';
    if (!fits) cur[step.key] = wantArray ? [] : sample(step.schema, known, step.name);
    const next = cur[step.key] as Record<string | number, unknown>;
    // An array reached by index 0 needs an item there, made from the next step's schema.
    const nextStep = steps[i + 1];
    if (wantArray && nextStep && next[0] === undefined && i + 1 < steps.length - 1) {
      next[0] = sample(nextStep.schema, known, nextStep.name);
    }
    cur = next;
  });
  return body;
}
