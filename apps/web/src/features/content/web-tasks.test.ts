import { msg, withAnyClickMode } from '@emolens/contracts';
import { describe, expect, it } from 'vitest';
import { moveItem } from './content-form.tsx';
import {
  checkTask,
  draftOf,
  duplicateTask,
  emptyStep,
  figmaScreenUrl,
  newTaskDraft,
  nextStepBlocker,
  nodeIdFromInput,
  pointAt,
  type TaskDraft,
  taskFormErrors,
  withoutTaskErrors,
} from './web-tasks.ts';

const settings = { taskTimeLimitSeconds: 90, autoShowTaskDescription: false };
const step = (targetNodeId: string, isFinal = false) => ({ ...emptyStep(), targetNodeId, isFinal });
const valid = (): TaskDraft => ({
  ...newTaskDraft(settings),
  description: 'Find the delivery terms',
  image: 'img-1',
  final_point: { x: 0.5, y: 0.25 },
});

describe('web task drafts', () => {
  it('start from the research defaults', () => {
    const draft = newTaskDraft(settings);
    expect(draft.timeout).toBe(90);
    expect(draft.autoShowTaskDescription).toBe(false);
    expect(draft.is_timeout).toBe(true);
    expect(newTaskDraft({ taskTimeLimitSeconds: '', autoShowTaskDescription: true }).timeout).toBe(60);
    expect(newTaskDraft(settings).id).not.toBe(draft.id);
  });

  it('require a description, a screenshot and the final point', () => {
    const { task, errors } = checkTask(newTaskDraft(settings));
    expect(task).toBeNull();
    expect(errors.description).toBe(msg('validation.required'));
    expect(errors.image).toBe(msg('content.screenshotRequired'));
    expect(errors.final_point).toBe(msg('content.finalPointRequired'));
  });

  it('refuse a screenshot that is not a picture of the research', () => {
    const { errors } = checkTask(valid(), new Set(['img-2']), msg('content.imageUnknown'));
    expect(errors.image).toBe(msg('content.imageUnknown'));
    expect(checkTask(valid(), new Set(['img-1']), msg('content.imageUnknown')).task).not.toBeNull();
  });

  it('check the steps: node ids, a screen twice, a final step', () => {
    const draft = { ...valid(), steps: [step('12:345'), step('12-345'), step('')] };
    const { errors } = checkTask(draft);
    expect(errors['steps.1.targetNodeId']).toBe(msg('content.stepTwice'));
    expect(errors['steps.2.targetNodeId']).toBe(msg('content.nodeIdMissing'));
    expect(errors.steps).toBe(msg('content.finalStepMissing'));
    const fixed = { ...valid(), steps: [step('12:345'), step('12:346', true)] };
    const saved = checkTask(fixed).task;
    expect(saved?.steps.map((s) => s.targetNodeId)).toEqual(['12:345', '12:346']);
    expect(saved?.steps[0]).not.toHaveProperty('key');
  });

  it('add a step only after the last one is complete', () => {
    expect(nextStepBlocker([])).toBeNull();
    expect(nextStepBlocker([step('')])).toBe(1);
    expect(nextStepBlocker([step('12:')])).toBe(1);
    expect(nextStepBlocker([step('1:2'), step('1-2')])).toBe(2);
    expect(nextStepBlocker([step('1:2'), step('1:3')])).toBeNull();
  });

  it('lose the steps when any click completes the task', () => {
    const draft = { ...valid(), steps: [step('1:2', true)] };
    const anyClick = withAnyClickMode(draft, true);
    expect(anyClick.steps).toEqual([]);
    expect(checkTask(anyClick).task?.anyIsFinal).toBe(true);
  });

  it('round-trip, duplicate and move tasks', () => {
    const task = checkTask(valid()).task;
    if (!task) throw new Error('valid task refused');
    expect(checkTask(draftOf(task)).task).toEqual(task);
    const copy = duplicateTask(task);
    expect(copy.id).not.toBe(task.id);
    expect({ ...copy, id: task.id }).toEqual(task);
    expect(moveItem(['a', 'b', 'c'], 0, 2)).toEqual(['b', 'c', 'a']);
    expect(moveItem(['a', 'b'], 0, 5)).toEqual(['a', 'b']);
  });

  it('take the node id of a pasted screen link', () => {
    expect(nodeIdFromInput('https://www.figma.com/proto/AbCdEfGhIjKl/Shop?node-id=12-345&t=x')).toBe('12:345');
    expect(nodeIdFromInput('https://www.figma.com/design/AbCdEfGhIjKl/Shop?node-id=1%3A2')).toBe('1:2');
    expect(nodeIdFromInput('12-345')).toBe('12-345');
  });

  it('keep points inside the image', () => {
    expect(pointAt(-0.2, 1.3)).toEqual({ x: 0, y: 1 });
    expect(pointAt(0.123456, 0.5)).toEqual({ x: 0.1235, y: 0.5 });
  });

  it('embed a step screen of a Figma prototype with the spec options', () => {
    const url = figmaScreenUrl('https://www.figma.com/proto/AbCdEfGhIjKl/Shop?node-id=1-2', '12:345');
    expect(url).toBeDefined();
    const params = new URL(url ?? '').searchParams;
    expect(params.get('node-id')).toBe('12-345');
    expect(params.get('scaling')).toBe('contain');
    expect(params.get('hotspot-hints')).toBe('0');
    expect(params.get('hide-ui')).toBe('1');
    expect(figmaScreenUrl('https://example.com', '12:345')).toBeUndefined();
    expect(figmaScreenUrl('https://www.figma.com/proto/AbCdEfGhIjKl/Shop', '')).toBeUndefined();
  });

  it('find and drop the form errors of the task list', () => {
    const errors = {
      title: 'x',
      'settings.webResourceScenario.0.final_point': 'a',
      'settings.webResourceScenario.0.steps.1.targetNodeId': 'b',
      'settings.webResourceScenario.10.image': 'c',
    };
    expect(taskFormErrors(errors, 0)).toEqual(['a', 'b']);
    expect(taskFormErrors(errors, 1)).toEqual([]);
    expect(withoutTaskErrors(errors)).toEqual({ title: 'x' });
  });
});
