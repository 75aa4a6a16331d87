import { z } from 'zod';
import { LANGUAGES } from './languages.ts';
import { MEDIA_NAME_MAX } from './media.ts';
import { msg } from './messages.ts';
import { HEATMAP_THEMES } from './report-colours.ts';
import { REPORT_STATUSES } from './reports.ts';
import { isCleanText } from './text.ts';

/*
 * A report's files (issue 13, item 8): the presentation (PPTX made from the snapshot on the server, or the
 * analyst's own PDF or PPTX attached in its place) and the video export (the content with the heatmap and the
 * engagement curve drawn over it, MP4). Made by a job; one of each per report.
 */
export const REPORT_FILE_KINDS = ['presentation', 'video'] as const;
export type ReportFileKind = (typeof REPORT_FILE_KINDS)[number];
export const REPORT_FILE_STATUSES = ['none', 'in_progress', 'done', 'failed'] as const;
export type ReportFileStatus = (typeof REPORT_FILE_STATUSES)[number];
/** An attached presentation: at most 100 MB, PDF or PPTX (checked by decoding, not by the name). */
export const PRESENTATION_UPLOAD_MAX = 100 * 1024 * 1024;
export const PRESENTATION_UPLOAD_TYPES = {
  pdf: 'application/pdf',
  pptx: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
} as const;

/** What the report-file job makes of each kind. */
export const MADE_FILE_TYPES = {
  presentation: { mime: PRESENTATION_UPLOAD_TYPES.pptx, extension: 'pptx' },
  video: { mime: 'video/mp4', extension: 'mp4' },
} as const satisfies Record<ReportFileKind, { mime: string; extension: string }>;

export const reportFileKindParams = z.strictObject({
  id: z.string().max(64),
  kind: z.enum(REPORT_FILE_KINDS, msg('validation.choice')),
});

export const reportFileSchema = z.object({
  kind: z.enum(REPORT_FILE_KINDS),
  status: z.enum(REPORT_FILE_STATUSES),
  /** Made from the report, or the analyst's own (presentations only); null while there is none. */
  source: z.enum(['generated', 'uploaded']).nullable(),
  /** 0–100 while a job makes it. */
  progress: z.number().int(),
  /** Why the last attempt failed (a message key). */
  error_key: z.string().nullable(),
  filename: z.string().nullable(),
  size: z.number().int().nullable(),
  language: z.enum(LANGUAGES).nullable(),
  /** A generated file made from an earlier build of the report than its current one. */
  outdated: z.boolean(),
  updated_at: z.string().nullable(),
  can: z.object({ generate: z.boolean(), download: z.boolean(), upload: z.boolean(), remove: z.boolean() }),
});
export type ReportFile = z.infer<typeof reportFileSchema>;

/** GET /api/cabinet/reports/{id}/files/ — the presentation and the video export, whatever their state. */
export const reportFilesOutput = z.object({
  report: z.object({ id: z.uuid(), name: z.string(), status: z.enum(REPORT_STATUSES), content_type: z.string() }),
  files: z.array(reportFileSchema),
});
export type ReportFilesOutput = z.infer<typeof reportFilesOutput>;

/** POST /api/cabinet/reports/{id}/files/{kind}/ — make the file (again) in a language and heatmap theme. */
export const generateReportFileInput = z.strictObject({
  language: z.enum(LANGUAGES, msg('validation.choice')),
  theme: z.enum(HEATMAP_THEMES, msg('validation.choice')).default('colour'),
});

/** PUT /api/cabinet/reports/{id}/files/presentation/?filename= — the analyst's own presentation as the body. */
export const presentationUploadQuery = z.strictObject({
  filename: z
    .string()
    .max(MEDIA_NAME_MAX, msg('validation.maxChars', { max: MEDIA_NAME_MAX }))
    .refine(isCleanText, msg('validation.invalid'))
    .pipe(z.string().trim().min(1, msg('validation.required'))),
});
