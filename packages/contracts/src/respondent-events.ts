import { z } from 'zod';
import { GUIDANCE_STATES } from './guidance.ts';
import { RESPONDENT_LIMITS, RESPONDENT_STEPS } from './respondent.ts';

// ---------------------------------------------------------------------------------------------
// POST /r/sessions/{id}/events — a batch of stimulus events on the session clock (ms), idempotent by seq.

const t = z
  .number()
  .min(0)
  .max(24 * 3600 * 1000);
const coord = z.number().min(-100_000).max(100_000);
const id64 = z.string().max(64);
const mediaTime = z
  .number()
  .min(0)
  .max(24 * 3600);

/** Every event the browser logs (design section 6); x/y are CSS pixels of the viewport. */
export const respondentEventSchema = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('segment_start'), t, segment: z.number().int().min(0) }),
  z.strictObject({ type: z.literal('step'), t, step: z.enum(RESPONDENT_STEPS) }),
  z.strictObject({
    type: z.literal('screen'),
    t,
    width: z.number().int().min(1).max(20_000),
    height: z.number().int().min(1).max(20_000),
    device_pixel_ratio: z.number().min(0.25).max(10),
  }),
  z.strictObject({ type: z.literal('face_check'), t, ok: z.boolean(), faces: z.number().int().min(0).max(50) }),
  /** Live guidance: the notice's state from now on (decision 045). */
  z.strictObject({ type: z.literal('guidance'), t, state: z.enum(GUIDANCE_STATES) }),
  z.strictObject({ type: z.literal('calibration_start'), t }),
  z.strictObject({ type: z.literal('calibration_dot'), t, x: coord, y: coord }),
  z.strictObject({ type: z.literal('calibration_end'), t }),
  z.strictObject({ type: z.literal('validation_dot'), t, x: coord, y: coord }),
  z.strictObject({ type: z.literal('validation_end'), t }),
  z.strictObject({ type: z.literal('checkpoint_dot'), t, x: coord, y: coord }),
  /** A checkpoint dot taken away with nothing else logged at that moment (a research's opening dot). */
  z.strictObject({ type: z.literal('checkpoint_end'), t }),
  z.strictObject({ type: z.literal('research_start'), t, campaign_id: id64, index: z.number().int().min(0).max(100) }),
  z.strictObject({ type: z.literal('research_end'), t, campaign_id: id64 }),
  z.strictObject({ type: z.literal('video_play'), t, time: mediaTime }),
  z.strictObject({ type: z.literal('video_pause'), t, time: mediaTime }),
  z.strictObject({ type: z.literal('video_time'), t, time: mediaTime }),
  z.strictObject({ type: z.literal('video_waiting'), t, time: mediaTime }),
  z.strictObject({ type: z.literal('video_seek'), t, from: mediaTime, to: mediaTime }),
  z.strictObject({ type: z.literal('video_ended'), t, time: mediaTime }),
  z.strictObject({ type: z.literal('picture_shown'), t, index: z.number().int().min(0).max(1000), image: id64 }),
  z.strictObject({ type: z.literal('shelf_shown'), t, index: z.number().int().min(0).max(1000), image: id64 }),
  z.strictObject({ type: z.literal('task_shown'), t, task: z.number().int().min(0).max(1000) }),
  z.strictObject({
    type: z.literal('task_step'),
    t,
    task: z.number().int().min(0).max(1000),
    step: z.number().int().min(0).max(1000),
  }),
  z.strictObject({
    type: z.literal('task_result'),
    t,
    task: z.number().int().min(0).max(1000),
    result: z.enum(['success', 'fail']),
  }),
  z.strictObject({ type: z.literal('click'), t, x: coord, y: coord, target: z.string().max(64).optional() }),
  z.strictObject({ type: z.literal('visibility'), t, hidden: z.boolean() }),
  z.strictObject({ type: z.literal('fullscreen'), t, on: z.boolean() }),
  z.strictObject({ type: z.literal('pause_screen'), t, action: z.enum(['shown', 'resumed', 'skipped']) }),
  z.strictObject({ type: z.literal('camera_lost'), t }),
]);
export type RespondentEvent = z.infer<typeof respondentEventSchema>;
export type RespondentEventType = RespondentEvent['type'];

export const eventBatchInput = z.strictObject({
  seq: z
    .number()
    .int()
    .min(0)
    .max(RESPONDENT_LIMITS.eventBatches - 1),
  events: z.array(respondentEventSchema).min(1).max(RESPONDENT_LIMITS.eventsPerBatch),
});
export type EventBatchInput = z.infer<typeof eventBatchInput>;
export const eventBatchOutput = z.object({ seq: z.number(), stored: z.boolean(), next_event_seq: z.number() });
