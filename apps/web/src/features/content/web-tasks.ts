import {
  CONTENT_LIMITS,
  canAddStep,
  figmaEmbedUrl,
  nodeIdKey,
  type Point,
  type WebTask,
  type WebTaskStep,
  webTaskSchema,
  webTaskStepSchema,
} from '@emolens/contracts';

/**
 * The website-prototype task builder's model (spec sections 3, 5 and 9): what the editor holds
 * while a task is being changed, and how it becomes a `webTaskSchema` task of
 * `settings.webResourceScenario`. Points are fractions (0–1) of the screenshot's width and height.
 */

/** The path of the task list in the research form. */
export const TASKS_PATH = 'settings.webResourceScenario';
export const MAX_TASKS = CONTENT_LIMITS.tasks;
export const MAX_STEPS = CONTENT_LIMITS.steps;
export const MAX_POINTS = CONTENT_LIMITS.points;
export const TIMEOUT_RANGE = CONTENT_LIMITS.taskTimeout;

/** A step in the editor: its `key` keeps the row's inputs in place when steps move. */
export type DraftStep = WebTaskStep & { key: string };

/** A task in the editor: the time limit input holds '' while empty; no screenshot is ''. */
export interface TaskDraft {
  id: string;
  description: string;
  steps: DraftStep[];
  anyIsFinal: boolean;
  withContinuation: boolean;
  autoShowTaskDescription: boolean;
  is_timeout: boolean;
  timeout: number | string;
  image: string;
  final_point: Point | null;
  additional_points: Point[];
}

let counter = 0;

/** A fresh id for a task or a step row (64 characters at most, unique enough for one research). */
export function newId(prefix = 'task'): string {
  counter += 1;
  const random =
    typeof crypto !== 'undefined' && 'randomUUID' in crypto
      ? crypto.randomUUID().replaceAll('-', '').slice(0, 16)
      : Math.random().toString(36).slice(2, 14);
  return `${prefix}-${Date.now().toString(36)}-${counter.toString(36)}${random}`;
}

/** The time limit of a new task: the research's, when it is a valid number of seconds. */
export function defaultTimeout(value: number | string | undefined): number {
  const seconds = typeof value === 'number' ? value : Number(value);
  return Number.isInteger(seconds) && seconds >= TIMEOUT_RANGE.min && seconds <= TIMEOUT_RANGE.max ? seconds : 60;
}

export function emptyStep(): DraftStep {
  return { key: newId('step'), description: '', isFinal: false, handled: false, targetNodeId: '', previewFigma: '' };
}

/** A new task: the research's time limit and description setting, everything else empty. */
export function newTaskDraft(settings: {
  taskTimeLimitSeconds: number | string;
  autoShowTaskDescription: boolean;
}): TaskDraft {
  return {
    id: newId(),
    description: '',
    steps: [],
    anyIsFinal: false,
    withContinuation: false,
    autoShowTaskDescription: settings.autoShowTaskDescription,
    is_timeout: true,
    timeout: defaultTimeout(settings.taskTimeLimitSeconds),
    image: '',
    final_point: null,
    additional_points: [],
  };
}

export function draftOf(task: WebTask): TaskDraft {
  return {
    ...task,
    steps: task.steps.map((step) => ({ ...step, key: newId('step') })),
    final_point: task.final_point ? { ...task.final_point } : null,
    additional_points: task.additional_points.map((p) => ({ ...p })),
  };
}

/** The draft in the shape of `webTaskSchema`'s input. */
export function taskInput(draft: TaskDraft): Record<string, unknown> {
  const { timeout } = draft;
  return {
    ...draft,
    steps: draft.steps.map(({ key: _key, ...step }) => step),
    timeout: typeof timeout === 'number' ? timeout : timeout.trim() === '' ? null : Number(timeout),
  };
}

/** The first message of each field, by its path in the task (`steps.1.targetNodeId`). */
export type FieldErrors = Record<string, string>;
/** A checked task: the task to save when nothing is wrong, and the messages. */
export interface TaskCheck {
  task: WebTask | null;
  errors: FieldErrors;
}

/**
 * The contract's check of a task, plus the one it cannot make alone: the screenshot must be one of
 * the research's pictures (`imageIds`, when known), as the server will insist.
 */
export function checkTask(draft: TaskDraft, imageIds?: ReadonlySet<string>, imageUnknown?: string): TaskCheck {
  const result = webTaskSchema.safeParse(taskInput(draft));
  const errors: FieldErrors = {};
  if (!result.success) {
    for (const issue of result.error.issues) {
      const path = issue.path.join('.');
      if (!(path in errors)) errors[path] = issue.message;
    }
  }
  if (imageIds && imageUnknown && draft.image && !imageIds.has(draft.image) && !errors.image) {
    errors.image = imageUnknown;
  }
  return { task: result.success && Object.keys(errors).length === 0 ? result.data : null, errors };
}

/** Whether a node id is one the contract accepts (`12:345`, `12-345`, `I1:2;3:4`). */
export function isNodeId(nodeId: string): boolean {
  return webTaskStepSchema.shape.targetNodeId.safeParse(nodeId).success;
}

/**
 * What the node id input keeps: a pasted link of a prototype screen gives its `node-id`
 * (`…?node-id=12-345` is the screen `12:345`); anything else stays as typed.
 */
export function nodeIdFromInput(value: string): string {
  const match = /[?&#]node-id=([^&#\s]+)/.exec(value);
  if (!match?.[1]) return value;
  try {
    return nodeIdKey(decodeURIComponent(match[1]));
  } catch {
    return value;
  }
}

/** A step is complete when its node id is valid and no earlier step targets the same screen. */
export function isStepComplete(steps: readonly Pick<WebTaskStep, 'targetNodeId'>[], index: number): boolean {
  const step = steps[index];
  return !!step && isNodeId(step.targetNodeId) && canAddStep(steps.slice(0, index), step.targetNodeId);
}

/**
 * Spec section 5, "previous point must be saved first": a step is added only after the last one is
 * complete. The reason when it cannot be: the last step's number, or 'limit'.
 */
export function nextStepBlocker(steps: readonly Pick<WebTaskStep, 'targetNodeId'>[]): number | 'limit' | null {
  if (steps.length >= MAX_STEPS) return 'limit';
  if (steps.length === 0) return null;
  return isStepComplete(steps, steps.length - 1) ? null : steps.length;
}

/** A point rounded to 1/10000 of the image, inside it. */
export function pointAt(x: number, y: number): Point {
  const clamp = (v: number) => Math.round(Math.min(1, Math.max(0, v)) * 10_000) / 10_000;
  return { x: clamp(x), y: clamp(y) };
}

/** A copy of a task under a new id. */
export function duplicateTask(task: WebTask): WebTask {
  return {
    ...task,
    id: newId(),
    steps: task.steps.map((step) => ({ ...step })),
    final_point: { ...task.final_point },
    additional_points: task.additional_points.map((p) => ({ ...p })),
  };
}

/** The embed address of one prototype screen (the step's node), with the spec's embed options. */
export function figmaScreenUrl(siteUrl: string, nodeId: string): string | undefined {
  const embed = figmaEmbedUrl(siteUrl);
  if (!embed || !isNodeId(nodeId)) return undefined;
  const url = new URL(embed);
  url.searchParams.set('node-id', nodeIdKey(nodeId).replaceAll(':', '-'));
  return url.toString();
}

/** The form errors of task `index` (`settings.webResourceScenario.0.final_point` …), without repeats. */
export function taskFormErrors(errors: Record<string, unknown>, index: number): string[] {
  const prefix = `${TASKS_PATH}.${index}`;
  const messages = Object.entries(errors)
    .filter(([path, message]) => (path === prefix || path.startsWith(`${prefix}.`)) && typeof message === 'string')
    .map(([, message]) => message as string);
  return [...new Set(messages)];
}

/** The form errors with none left about the task list (they name tasks by their old places). */
export function withoutTaskErrors<E>(errors: Record<string, E>): Record<string, E> {
  return Object.fromEntries(
    Object.entries(errors).filter(([path]) => path !== TASKS_PATH && !path.startsWith(`${TASKS_PATH}.`)),
  );
}
