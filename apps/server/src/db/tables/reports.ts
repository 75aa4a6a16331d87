/** Table types: Reports, their files, norms, task marks and interview analyses. */
import type {
  ContentType,
  DemoKind,
  DemoStatus,
  FixationSettings,
  KeyMetrics,
  Language,
  ProcessErrorCode,
  ReportAreaInput,
  ReportFileKind,
  ReportFilters,
  ReportSegment,
  ReportSnapshot,
  ReportStatus,
  ReportType,
} from '@emolens/contracts';
import type { PerSecondSeries, PersonTrack, SessionResult, SessionSummaryOut } from '@emolens/engine';
import type { ColumnType, Generated, Selectable } from 'kysely';
import type { Json, Timestamp } from './columns.ts';

/** A user's demo or interview analysis (demo module). */
export interface DemoAnalysesTable {
  id: string;
  owner_id: string;
  kind: DemoKind;
  filename: string;
  size: ColumnType<string | number | bigint, number, number>;
  mime: string;
  storage_key: string;
  duration_seconds: number | null;
  status: Generated<DemoStatus>;
  progress: Generated<number>;
  attempts: Generated<number>;
  error_code: ProcessErrorCode | null;
  engine_version: string | null;
  created_at: Timestamp;
  started_at: Date | null;
  finished_at: Date | null;
  sampling: Json<SessionResult['sampling']> | null;
  frames: Uint8Array | null;
  frame_count: number | null;
  series: Json<PerSecondSeries> | null;
  people: Json<PersonTrack[]> | null;
  summary: Json<SessionSummaryOut> | null;
  recording_seconds: number | null;
  sessions_counted: number | null;
}

/** A report: its definition and, once built, its snapshot (reports module). */
export interface ReportsTable {
  id: Generated<string>;
  campaign_id: string;
  created_by: string | null;
  name: string;
  type: ReportType;
  step: number;
  filters: Json<ReportFilters>;
  segment: Json<ReportSegment>;
  fixations: Json<FixationSettings>;
  areas: ColumnType<ReportAreaInput[], string | undefined, string>;
  status: ReportStatus;
  failed: Generated<boolean>;
  error_key: string | null;
  progress: Generated<number>;
  generation: Generated<number>;
  video_count: number | null;
  /** A snapshot built before decision 026 (jsonb); null for those built since, which are in `snapshot_text`. */
  snapshot: ColumnType<ReportSnapshot | null, string | null | undefined, string | null>;
  /** The snapshot's JSON text as the build wrote it (decision 026). */
  snapshot_text: ColumnType<string | null, string | null | undefined, string | null>;
  created_at: Timestamp;
  built_at: Date | null;
  last_accessed_at: Date | null;
  benchmark: Generated<boolean>;
  /** Other researches of the project whose respondents the report pools (decision 019). */
  researches: ColumnType<string[], string | undefined, string>;
}

/** A report's presentation or video export: made by a job, or (a presentation) the analyst's own file. */
export interface ReportFilesTable {
  report_id: string;
  kind: ReportFileKind;
  source: 'generated' | 'uploaded';
  status: 'in_progress' | 'done' | 'failed';
  attempt: Generated<number>;
  generation: number;
  language: Language;
  progress: Generated<number>;
  error_key: string | null;
  storage_key: string | null;
  filename: string | null;
  mime: string | null;
  size: ColumnType<string | number | bigint | null, number | null | undefined, number | null>;
  created_by: string | null;
  updated_at: Timestamp;
}
export type ReportFileRow = Selectable<ReportFilesTable>;

/** A research's key metrics from its latest whole-sample shift report. */
export interface ResearchNormsTable {
  campaign_id: string;
  report_id: string | null;
  respondents: number;
  metrics: Json<KeyMetrics>;
  updated_at: Timestamp;
}

export interface NormImportsTable {
  id: Generated<string>;
  name: string;
  imported_by: string | null;
  imported_at: Timestamp;
}

export interface NormEntriesTable {
  import_id: string;
  content_type: ContentType;
  subtype: string;
  respondents: number;
  metrics: Json<KeyMetrics>;
}

/** An analyst's mark of one respondent's run of one website-prototype task. */
export interface TaskMarksTable {
  session_id: string;
  campaign_id: string;
  task: number;
  mark: 'accepted' | 'rejected' | 'failed';
  marked_by: string | null;
  marked_at: Timestamp;
}
