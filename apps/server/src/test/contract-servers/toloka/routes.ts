/** The Toloka contract server's resources: projects, pools, tasks, operations and the requester (see server.ts). */
import { randomUUID } from 'node:crypto';
import { listAssignments, patchAssignment, validateTask } from './assignments.ts';
import {
  Check,
  type ContractPool,
  type ContractProject,
  type ContractTask,
  checkFieldSpecs,
  checkFilter,
  errorAnswer,
  HttpAnswer,
  isObject,
  type Json,
  MIN_REWARD,
  notFound,
  stamp,
  VALIDATION,
} from './model.ts';
import type { TolokaContractState } from './state.ts';

export type Route = (ctx: {
  state: TolokaContractState;
  body: unknown;
  query: URLSearchParams;
  id: string;
}) => HttpAnswer;

export const routes: Array<{ method: string; pattern: RegExp; handle: Route }> = [
  {
    method: 'GET',
    pattern: /^\/requester$/,
    handle: ({ state }) => new HttpAnswer(200, { ...state.requester, balance: state.balance }),
  },
  {
    method: 'POST',
    pattern: /^\/projects$/,
    handle: ({ state, body }) => {
      if (!isObject(body))
        return errorAnswer(400, VALIDATION.code, VALIDATION.message, {
          '': { code: 'OBJECT_EXPECTED', message: 'Object expected' },
        });
      const check = new Check();
      check.string(body, 'public_name', { required: true, notBlank: true });
      check.string(body, 'public_description', { required: true });
      check.string(body, 'public_instructions', {});
      check.enumOf(body, 'assignments_issuing_type', ['AUTOMATED', 'MAP_SELECTOR'], false);
      const spec = check.object(body, 'task_spec', true);
      if (spec) {
        const input = check.object(spec, 'input_spec', true, 'task_spec.');
        const output = check.object(spec, 'output_spec', true, 'task_spec.');
        if (input) checkFieldSpecs(check, input, 'task_spec.input_spec');
        if (output) checkFieldSpecs(check, output, 'task_spec.output_spec');
        const view = check.object(spec, 'view_spec', false, 'task_spec.');
        if (view) {
          check.object(view, 'settings', true, 'task_spec.view_spec.');
          if (view.type === 'tb') {
            const config = check.string(view, 'config', { required: true }, 'task_spec.view_spec.');
            if (typeof config === 'string') {
              try {
                if (!isObject(JSON.parse(config))) throw new Error('not an object');
              } catch {
                check.add(
                  'task_spec.view_spec.config',
                  'JSON_EXPECTED',
                  'Template Builder config must be a JSON object string',
                );
              }
            }
            check.object(view, 'lock', true, 'task_spec.view_spec.');
          }
        }
      }
      if (check.failed) return check.answer();
      const output = isObject(spec) && isObject(spec.output_spec) ? spec.output_spec : {};
      const codeField =
        Object.entries(output).find(([, field]) => isObject(field) && field.type === 'string')?.[0] ?? null;
      const project: ContractProject = {
        ...body,
        id: state.nextId(),
        status: 'ACTIVE',
        created: stamp(),
        owner: { id: state.requester.id, myself: true },
        output_spec_code_field: codeField,
      };
      state.projects.set(project.id, project);
      const { output_spec_code_field: _internal, ...shown } = project;
      return new HttpAnswer(201, shown);
    },
  },
  {
    method: 'POST',
    pattern: /^\/pools$/,
    handle: ({ state, body }) => {
      if (!isObject(body))
        return errorAnswer(400, VALIDATION.code, VALIDATION.message, {
          '': { code: 'OBJECT_EXPECTED', message: 'Object expected' },
        });
      const check = new Check();
      const projectId = check.string(body, 'project_id', { required: true, notBlank: true });
      if (typeof projectId === 'string' && !state.projects.has(projectId)) {
        check.add('project_id', 'ENTITY_DOES_NOT_EXIST', `Project ${projectId} does not exist`);
      }
      check.string(body, 'private_name', { required: true, notBlank: true });
      check.string(body, 'public_description', {});
      check.boolean(body, 'may_contain_adult_content', true);
      const expire = check.string(body, 'will_expire', { required: true });
      if (
        typeof expire === 'string' &&
        Number.isNaN(Date.parse(/[zZ]|[+-]\d\d:\d\d$/.test(expire) ? expire : `${expire}Z`))
      ) {
        check.add('will_expire', 'INVALID_DATE_TIME_SYNTAX', 'Date and time in ISO 8601 format expected');
      }
      check.number(body, 'reward_per_assignment', { required: true, min: MIN_REWARD });
      check.number(body, 'assignment_max_duration_seconds', { required: true, integer: true, min: 1 });
      const defaults = check.object(body, 'defaults', true);
      if (defaults) {
        check.number(
          defaults,
          'default_overlap_for_new_task_suites',
          { required: true, integer: true, min: 1 },
          'defaults.',
        );
        check.number(defaults, 'default_overlap_for_new_tasks', { integer: true, min: 1 }, 'defaults.');
      }
      check.boolean(body, 'auto_accept_solutions', false);
      check.number(body, 'auto_accept_period_day', { integer: true, min: 1, max: 21 });
      const mixer = check.object(body, 'mixer_config', false);
      if (mixer) {
        check.number(mixer, 'real_tasks_count', { required: true, integer: true, min: 0 }, 'mixer_config.');
        check.number(mixer, 'golden_tasks_count', { required: true, integer: true, min: 0 }, 'mixer_config.');
        check.number(mixer, 'training_tasks_count', { required: true, integer: true, min: 0 }, 'mixer_config.');
      }
      if (body.filter !== undefined && body.filter !== null) {
        if (JSON.stringify(body.filter).length > 10_000) {
          check.add('filter', 'OBJECT_SIZE_BYTES_GREATER_THAN_MAX', 'Filter must not exceed 10000 characters');
        } else {
          checkFilter(check, body.filter, 'filter');
        }
      }
      if (check.failed) return check.answer();
      const pool = {
        ...body,
        id: state.nextId(),
        status: 'CLOSED',
        created: stamp(),
        type: 'REGULAR',
        owner: { id: state.requester.id, myself: true },
      } as unknown as ContractPool; // the fields ContractPool names were validated above
      state.pools.set(pool.id, pool);
      return new HttpAnswer(201, pool);
    },
  },
  {
    method: 'GET',
    pattern: /^\/pools\/([^/]+)$/,
    handle: ({ state, id }) => {
      const pool = state.pools.get(id);
      return pool ? new HttpAnswer(200, pool) : notFound('Pool', id);
    },
  },
  {
    method: 'POST',
    pattern: /^\/pools\/([^/]+)\/open$/,
    handle: ({ state, id }) => {
      const pool = state.pools.get(id);
      if (!pool) return notFound('Pool', id);
      if (pool.status === 'OPEN') return new HttpAnswer(204, undefined);
      if (pool.status === 'ARCHIVED') return errorAnswer(409, 'CONFLICT_STATE', 'An archived pool cannot be opened');
      if (state.poolBusy(id)) {
        return errorAnswer(
          409,
          'POOL_LOCKED_BY_ANOTHER_OPERATION',
          'Wait for the previous operation on the pool to finish',
        );
      }
      if (![...state.tasks.values()].some((t) => t.pool_id === id)) {
        return errorAnswer(409, 'EMPTY_POOL', 'The pool has no tasks');
      }
      const short = () => state.poolCost(id) > state.balance + 1e-9;
      if (state.balanceFailure === 'conflict' && short()) {
        return errorAnswer(409, 'NOT_ENOUGH_BALANCE', 'Not enough money in the account to open the pool', {
          required: state.poolCost(id),
          balance: state.balance,
        });
      }
      const op = state.startOperation('POOL.OPEN', id, () => {
        const now = stamp();
        if (short()) {
          pool.status = 'CLOSED';
          pool.last_close_reason = 'NOT_ENOUGH_BALANCE';
          pool.last_stopped = now;
          if (state.balanceFailure === 'open-then-close') {
            pool.last_started = now;
            return 'SUCCESS';
          }
          return 'FAIL';
        }
        pool.status = 'OPEN';
        pool.last_started = now;
        return 'SUCCESS';
      });
      return new HttpAnswer(202, op);
    },
  },
  {
    method: 'POST',
    pattern: /^\/pools\/([^/]+)\/close$/,
    handle: ({ state, id }) => {
      const pool = state.pools.get(id);
      if (!pool) return notFound('Pool', id);
      if (pool.status === 'CLOSED') return new HttpAnswer(204, undefined);
      if (pool.status === 'ARCHIVED') return errorAnswer(409, 'CONFLICT_STATE', 'An archived pool cannot be closed');
      if (state.poolBusy(id)) {
        return errorAnswer(
          409,
          'POOL_LOCKED_BY_ANOTHER_OPERATION',
          'Wait for the previous operation on the pool to finish',
        );
      }
      const op = state.startOperation('POOL.CLOSE', id, () => {
        pool.status = 'CLOSED';
        pool.last_close_reason = 'MANUAL';
        pool.last_stopped = stamp();
        return 'SUCCESS';
      });
      return new HttpAnswer(202, op);
    },
  },
  {
    method: 'POST',
    pattern: /^\/tasks$/,
    handle: ({ state, body, query }) => {
      const allowDefaults = query.get('allow_defaults') === 'true';
      const many = Array.isArray(body);
      const items: unknown[] = many ? body : [body];
      const checks = items.map((item) => validateTask(state, item, allowDefaults));
      const conflict = checks.find((c): c is HttpAnswer => c instanceof HttpAnswer);
      if (conflict) return conflict;
      const failed = checks.flatMap((c, i) => (c instanceof Check && c.failed ? [[i, c] as const] : []));
      const first = failed[0];
      if (first) {
        if (!many) return first[1].answer();
        const payload = Object.fromEntries(failed.map(([i, c]) => [String(i), c.errors]));
        return errorAnswer(400, VALIDATION.code, VALIDATION.message, payload);
      }
      const created = items.map((raw) => {
        const item = raw as Json;
        const pool = state.pools.get(item.pool_id as string) as ContractPool;
        const overlap =
          typeof item.overlap === 'number'
            ? item.overlap
            : (pool.defaults.default_overlap_for_new_tasks ?? pool.defaults.default_overlap_for_new_task_suites);
        const task: ContractTask = {
          ...item,
          id: randomUUID(),
          pool_id: pool.id,
          input_values: item.input_values as Json,
          overlap,
          created: stamp(),
        };
        state.tasks.set(task.id, task);
        return task;
      });
      return many
        ? new HttpAnswer(201, { items: Object.fromEntries(created.map((t, i) => [String(i), t])) })
        : new HttpAnswer(201, created[0]);
    },
  },
  {
    method: 'GET',
    pattern: /^\/operations\/([^/]+)$/,
    handle: ({ state, id }) => {
      const op = state.operations.get(id);
      return op ? new HttpAnswer(200, op) : notFound('Operation', id);
    },
  },
  {
    method: 'GET',
    pattern: /^\/assignments$/,
    handle: ({ state, query }) => listAssignments(state, query),
  },
  {
    method: 'GET',
    pattern: /^\/assignments\/([^/]+)$/,
    handle: ({ state, id }) => {
      const a = state.assignments.get(id);
      return a ? new HttpAnswer(200, a) : notFound('Assignment', id);
    },
  },
  {
    method: 'PATCH',
    pattern: /^\/assignments\/([^/]+)$/,
    handle: ({ state, body, id }) => patchAssignment(state, id, body),
  },
];
