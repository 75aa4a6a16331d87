/** Toloka's answers as the client reads them (unknown fields are kept; enum-like fields accept values Toloka may add later), and the inputs it sends. */
import { z } from 'zod';

/** A string field whose documented values are `T`, typed for completion but accepting anything Toloka adds. */
export function openEnum<const T extends readonly string[]>(_values: T) {
  return z.string().transform((value) => value as T[number] | (string & {}));
}

export const POOL_STATUSES = ['OPEN', 'CLOSED', 'ARCHIVED', 'LOCKED'] as const;
export const CLOSE_REASONS = [
  'MANUAL',
  'EXPIRED',
  'COMPLETED',
  'NOT_ENOUGH_BALANCE',
  'ASSIGNMENTS_LIMIT_EXCEEDED',
  'BLOCKED',
  'FOR_UPDATE',
] as const;
export const ASSIGNMENT_STATUSES = ['ACTIVE', 'SUBMITTED', 'ACCEPTED', 'REJECTED', 'SKIPPED', 'EXPIRED'] as const;
export const OPERATION_STATUSES = ['PENDING', 'RUNNING', 'SUCCESS', 'FAIL'] as const;

export type TolokaPoolStatus = (typeof POOL_STATUSES)[number];
export type TolokaCloseReason = (typeof CLOSE_REASONS)[number];
export type TolokaAssignmentStatus = (typeof ASSIGNMENT_STATUSES)[number];
export type TolokaOperationStatus = (typeof OPERATION_STATUSES)[number];

export const ErrorBodySchema = z.looseObject({
  code: z.string(),
  message: z.string().optional(),
  request_id: z.string().optional(),
  payload: z.unknown().optional(),
});

export const RequesterSchema = z.looseObject({
  id: z.string(),
  balance: z.number(),
  public_name: z.record(z.string(), z.string()).optional(),
});
export type TolokaRequester = z.output<typeof RequesterSchema>;

export const ProjectSchema = z.looseObject({
  id: z.string(),
  public_name: z.string(),
  status: openEnum(['ACTIVE', 'ARCHIVED'] as const).optional(),
  created: z.string().optional(),
});
export type TolokaProject = z.output<typeof ProjectSchema>;

export const PoolSchema = z.looseObject({
  id: z.string(),
  project_id: z.string(),
  private_name: z.string().optional(),
  status: openEnum(POOL_STATUSES),
  last_close_reason: openEnum(CLOSE_REASONS).optional(),
  reward_per_assignment: z.number().optional(),
  created: z.string().optional(),
  last_started: z.string().optional(),
  last_stopped: z.string().optional(),
});
export type TolokaPool = z.output<typeof PoolSchema>;

export const TaskSchema = z.looseObject({
  id: z.string(),
  pool_id: z.string(),
  input_values: z.record(z.string(), z.unknown()),
  overlap: z.number().optional(),
  created: z.string().optional(),
});
export type TolokaTask = z.output<typeof TaskSchema>;

export const OperationSchema = z.looseObject({
  id: z.string(),
  type: z.string(),
  status: z.enum(OPERATION_STATUSES),
  submitted: z.string(),
  started: z.string().optional(),
  finished: z.string().optional(),
  progress: z.number().optional(),
  parameters: z.record(z.string(), z.unknown()).optional(),
  details: z.unknown().optional(),
});
export type TolokaOperation = z.output<typeof OperationSchema>;

export const SolutionSchema = z.looseObject({ output_values: z.record(z.string(), z.unknown()) });

export const AssignmentSchema = z.looseObject({
  id: z.string(),
  pool_id: z.string().optional(),
  task_suite_id: z.string().optional(),
  user_id: z.string(),
  status: openEnum(ASSIGNMENT_STATUSES),
  reward: z.number().optional(),
  tasks: z
    .array(z.looseObject({ id: z.string().optional(), input_values: z.record(z.string(), z.unknown()) }))
    .optional(),
  solutions: z.array(SolutionSchema).optional(),
  public_comment: z.string().optional(),
  created: z.string().optional(),
  submitted: z.string().optional(),
  accepted: z.string().optional(),
  rejected: z.string().optional(),
});
export type TolokaAssignment = z.output<typeof AssignmentSchema>;

export const AssignmentPageSchema = z.looseObject({ items: z.array(AssignmentSchema), has_more: z.boolean() });
export type TolokaAssignmentPage = z.output<typeof AssignmentPageSchema>;

/** The PATCH answer documents only the changed fields. */
export const AssignmentPatchResultSchema = z.looseObject({
  status: openEnum(ASSIGNMENT_STATUSES),
  public_comment: z.string().optional(),
});
export type TolokaAssignmentPatchResult = z.output<typeof AssignmentPatchResultSchema>;

// ---------------------------------------------------------------------------------------------------------------
// Request bodies

/** One field of task_spec.input_spec / output_spec. */
export type TolokaFieldSpec = {
  type: 'url' | 'boolean' | 'integer' | 'string' | 'float' | 'json' | 'file' | 'coordinates';
  required?: boolean;
  hidden?: boolean;
  min_length?: number;
  max_length?: number;
  min_value?: number;
  max_value?: number;
  allowed_values?: Array<string | number>;
};

export type TolokaProjectInput = {
  public_name: string;
  public_description: string;
  public_instructions?: string;
  private_comment?: string;
  task_spec: {
    input_spec: Record<string, TolokaFieldSpec>;
    output_spec: Record<string, TolokaFieldSpec>;
    view_spec?: Record<string, unknown>;
  };
  assignments_issuing_type?: 'AUTOMATED' | 'MAP_SELECTOR';
  [extra: string]: unknown;
};

/** A leaf condition of a pool filter (`category`/`key`/`operator`/`value`). */
export type TolokaFilterCondition = {
  category: 'profile' | 'computed' | 'skill';
  key: string;
  operator: 'EQ' | 'NE' | 'GT' | 'LT' | 'GTE' | 'LTE' | 'IN' | 'NOT_IN';
  value: string | number | boolean | null;
};
export type TolokaFilter = { and: TolokaFilter[] } | { or: TolokaFilter[] } | TolokaFilterCondition;

export type TolokaPoolInput = {
  project_id: string;
  private_name: string;
  may_contain_adult_content: boolean;
  /** USD per task suite. */
  reward_per_assignment: number;
  assignment_max_duration_seconds: number;
  /** UTC, `YYYY-MM-DDThh:mm:ss[.sss]` (an ISO string with `Z` is accepted too). */
  will_expire: string;
  defaults: { default_overlap_for_new_task_suites: number; default_overlap_for_new_tasks?: number };
  public_description?: string;
  private_comment?: string;
  auto_accept_solutions?: boolean;
  /** 1..21 days to review before Toloka decides automatically. */
  auto_accept_period_day?: number;
  /** Needed to upload single tasks (rather than task suites): one real task per suite. */
  mixer_config?: {
    real_tasks_count: number;
    golden_tasks_count: number;
    training_tasks_count: number;
    [extra: string]: unknown;
  };
  filter?: TolokaFilter;
  [extra: string]: unknown;
};

export type TolokaTaskInput = {
  pool_id: string;
  input_values: Record<string, unknown>;
  overlap: number;
  [extra: string]: unknown;
};
