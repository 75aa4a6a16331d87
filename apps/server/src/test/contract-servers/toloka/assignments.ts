/** The Toloka contract server's tasks and assignments: validation, listing and accept/reject (see server.ts). */
import {
  ASSIGNMENT_STATUSES,
  Check,
  type ContractAssignmentStatus,
  checkInputValue,
  DEFAULT_PAGE_LIMIT,
  errorAnswer,
  HttpAnswer,
  isObject,
  type Json,
  MAX_PAGE_LIMIT,
  notFound,
  stamp,
} from './model.ts';
import type { TolokaContractState } from './state.ts';

export function validateTask(state: TolokaContractState, item: unknown, allowDefaults: boolean): Check | HttpAnswer {
  const check = new Check();
  if (!isObject(item)) {
    check.add('', 'OBJECT_EXPECTED', 'Object expected');
    return check;
  }
  const poolId = check.string(item, 'pool_id', { required: true, notBlank: true });
  const pool = typeof poolId === 'string' ? state.pools.get(poolId) : undefined;
  if (typeof poolId === 'string' && !pool)
    check.add('pool_id', 'ENTITY_DOES_NOT_EXIST', `Pool ${poolId} does not exist`);
  const input = check.object(item, 'input_values', true);
  const defaultOverlap = pool?.defaults.default_overlap_for_new_tasks;
  if (!(allowDefaults && defaultOverlap !== undefined)) {
    check.number(item, 'overlap', { required: true, integer: true, min: 1 });
  } else {
    check.number(item, 'overlap', { integer: true, min: 1 });
  }
  if (pool) {
    if (pool.status === 'ARCHIVED')
      return errorAnswer(409, 'CONFLICT_STATE', 'Tasks cannot be added to an archived pool');
    if (!isObject(pool.mixer_config)) {
      return errorAnswer(
        409,
        'MIXER_CONFIG_REQUIRED',
        'Single tasks need the pool mixer_config; upload task suites otherwise',
      );
    }
    const project = state.projects.get(pool.project_id);
    const taskSpec = project?.task_spec;
    const spec = isObject(taskSpec) && isObject(taskSpec.input_spec) ? taskSpec.input_spec : {};
    if (input) {
      for (const [name, field] of Object.entries(spec)) {
        if (!isObject(field)) continue;
        const value = input[name];
        if (value === undefined || value === null) {
          if (field.required !== false)
            check.add(`input_values.${name}`, 'VALUE_REQUIRED', 'Value must be present and not equal to null');
          continue;
        }
        checkInputValue(check, field.type, value, `input_values.${name}`);
      }
      for (const name of Object.keys(input)) {
        if (!(name in spec))
          check.add(`input_values.${name}`, 'VALUE_NOT_ALLOWED', 'Field is not in the project input_spec');
      }
    }
  }
  return check;
}

export function listAssignments(state: TolokaContractState, query: URLSearchParams): HttpAnswer {
  const check = new Check();
  const poolId = query.get('pool_id');
  const taskId = query.get('task_id');
  const suiteId = query.get('task_suite_id');
  if (!poolId && !taskId && !suiteId) {
    check.add('pool_id', 'VALUE_REQUIRED', 'One of pool_id, task_id or task_suite_id is required');
  }
  const statuses = (query.get('status') ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  for (const s of statuses) {
    if (!ASSIGNMENT_STATUSES.includes(s as ContractAssignmentStatus)) {
      check.add('status', 'UNKNOWN_ENUM_VALUE', `Unknown status ${s}`);
    }
  }
  const limitText = query.get('limit');
  const limit = limitText === null ? DEFAULT_PAGE_LIMIT : Number(limitText);
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_PAGE_LIMIT) {
    check.add('limit', 'VALUE_OUT_OF_BOUNDS', `limit must be within 1..${MAX_PAGE_LIMIT}`);
  }
  const sort = query.get('sort') ?? 'id';
  const sortField = sort.replace(/^-/, '');
  if (!['id', 'created', 'submitted', 'skipped', 'expired', 'accepted', 'rejected'].includes(sortField)) {
    check.add('sort', 'UNKNOWN_ENUM_VALUE', `Cannot sort by ${sortField}`);
  }
  if (check.failed) return check.answer();

  const idGt = query.get('id_gt');
  const idGte = query.get('id_gte');
  const idLt = query.get('id_lt');
  const idLte = query.get('id_lte');
  const userId = query.get('user_id');
  const matching = [...state.assignments.values()].filter((a) => {
    if (poolId && a.pool_id !== poolId) return false;
    if (suiteId && a.task_suite_id !== suiteId) return false;
    if (taskId && !(Array.isArray(a.tasks) && a.tasks.some((t) => isObject(t) && t.id === taskId))) return false;
    if (userId && a.user_id !== userId) return false;
    if (statuses.length > 0 && !statuses.includes(a.status)) return false;
    if (idGt !== null && !(a.id > idGt)) return false;
    if (idGte !== null && !(a.id >= idGte)) return false;
    if (idLt !== null && !(a.id < idLt)) return false;
    if (idLte !== null && !(a.id <= idLte)) return false;
    return true;
  });
  const direction = sort.startsWith('-') ? -1 : 1;
  matching.sort((x, y) => {
    const a = String(x[sortField] ?? '');
    const b = String(y[sortField] ?? '');
    const primary = a < b ? -1 : a > b ? 1 : 0;
    return direction * (primary !== 0 ? primary : x.id < y.id ? -1 : x.id > y.id ? 1 : 0);
  });
  return new HttpAnswer(200, { items: matching.slice(0, limit), has_more: matching.length > limit });
}

export function patchAssignment(state: TolokaContractState, id: string, body: unknown): HttpAnswer {
  const assignment = state.assignments.get(id);
  if (!assignment) return notFound('Assignment', id);
  const check = new Check();
  if (!isObject(body)) {
    check.add('', 'OBJECT_EXPECTED', 'Object expected');
    return check.answer();
  }
  check.enumOf(body, 'status', ['ACCEPTED', 'REJECTED'], true);
  const comment = check.string(body, 'public_comment', { max: 2048 });
  if (body.status === 'REJECTED' && !(typeof comment === 'string' && comment.trim() !== '')) {
    check.add('public_comment', 'VALUE_REQUIRED', 'A rejection needs a comment for the worker');
  }
  if (check.failed) return check.answer();
  const target = body.status as 'ACCEPTED' | 'REJECTED';
  const allowedFrom: ContractAssignmentStatus[] = target === 'ACCEPTED' ? ['SUBMITTED', 'REJECTED'] : ['SUBMITTED'];
  if (!allowedFrom.includes(assignment.status)) {
    return errorAnswer(
      409,
      'INAPPROPRIATE_STATUS',
      'This or related resource is in inappropriate status, operation is not allowed',
      { appropriate_statuses: allowedFrom },
    );
  }
  const now = stamp();
  assignment.status = target;
  if (typeof comment === 'string') assignment.public_comment = comment;
  if (target === 'ACCEPTED') {
    assignment.accepted = now;
    state.charge(assignment.reward * (1 + state.feeRate));
  } else {
    assignment.rejected = now;
  }
  const answer: Json = { status: assignment.status };
  if (assignment.public_comment !== undefined) answer.public_comment = assignment.public_comment;
  return new HttpAnswer(200, answer);
}
