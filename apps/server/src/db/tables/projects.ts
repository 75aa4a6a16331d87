/** Table types: Projects, researches (campaigns), scenarios, questionnaires, media and the categories directory. */
import type {
  AudienceType,
  CategoryKind,
  ContentType,
  DeletionIdentifierKind,
  DeletionReason,
  DeletionScope,
  FlowType,
  Language,
  MediaErrorCode,
  MediaKind,
  MediaRole,
  MediaStatus,
  PictureGallery,
  Platform,
  ProjectStatus,
  Question,
  ResearchSettings,
  ResearchStatus,
  RetentionMode,
  ShelfDisplay,
  ShelfSetting,
  SurveyType,
} from '@emolens/contracts';
import type { ColumnType, Generated } from 'kysely';
import type { Timestamp } from './columns.ts';

export interface ProjectsTable {
  id: Generated<string>;
  title: string;
  description: Generated<string>;
  platform: Platform;
  respondent_language: Language;
  audience_type: AudienceType;
  flow_type: FlowType;
  status: Generated<ProjectStatus>;
  required_respondents: number | null;
  owner_id: string;
  created_by: string;
  created_at: Timestamp;
  updated_at: Timestamp;
  launched_at: Date | null;
  completed_at: Date | null;
  archived_at: Date | null;
  retention_mode: Generated<RetentionMode>;
  retention_days: number | null;
  /** Seeded for a newcomer on the installation's first start (decision 017): shown as demo, never in benchmarks. */
  is_demo: Generated<boolean>;
  /** When the demo project's seeding gave up (issue 28 item 11); null while it is made, or made. */
  demo_stopped_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
}

export interface DataDeletionsTable {
  id: Generated<string>;
  project_id: string;
  user_id: string | null;
  created_at: Generated<Date>;
  reason: DeletionReason;
  scope: DeletionScope;
  identifier_kind: DeletionIdentifierKind | null;
  identifier: string | null;
  session_count: number;
}

export interface ResearchCategories {
  brand: string;
  sub_brand: string;
  company: string;
  industry: string;
  sector: string;
  category: string;
  subtype: string;
}

export interface ResearchesTable {
  id: Generated<string>;
  project_id: string;
  title: string;
  description: Generated<string>;
  content_type: ContentType;
  status: Generated<ResearchStatus>;
  site_url: Generated<string>;
  /** jsonb: written as JSON text, read back as objects by both drivers. */
  categories: ColumnType<ResearchCategories, string, string>;
  settings: ColumnType<ResearchSettings, string, string>;
  picture_gallery: ColumnType<PictureGallery, string | undefined, string>;
  shelf_content_scenario: ColumnType<ShelfDisplay[], string | undefined, string>;
  shelf_setting: ColumnType<ShelfSetting, string | undefined, string>;
  is_self_service: Generated<boolean>;
  is_new_user_flow: boolean;
  created_by: string;
  modified_by: string;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface RedirectLinks {
  complete: string;
  quota_full: string;
  screen_out: string;
}

export interface ScenariosTable {
  id: Generated<string>;
  project_id: string;
  order_number: number;
  description: Generated<string>;
  is_random_order: Generated<boolean>;
  is_use_face_checker: Generated<boolean>;
  /** A questionnaire of type screener (surveys.id), or none. */
  screener_survey_id: string | null;
  /** A questionnaire of type survey (surveys.id), shown after the content, or none. */
  embedded_survey_id: string | null;
  redirect_links: ColumnType<RedirectLinks, string, string>;
  quota: number | null;
  is_paid: Generated<boolean>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** A questionnaire (screener or survey), its questions as the contracts' `questionSchema` writes them. */
export interface SurveysTable {
  id: Generated<string>;
  owner_id: string;
  type: SurveyType;
  title: string;
  enabled: Generated<boolean>;
  questions: ColumnType<Question[], string, string>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface ScenarioResearchesTable {
  scenario_id: string;
  campaign_id: string;
  position: number;
}

export interface ProjectAccessorLinksTable {
  id: Generated<string>;
  project_id: string;
  scenario_id: string;
  token: string;
  quota_size: number | null;
  is_use_face_checker: Generated<boolean>;
  is_request_payment_data: Generated<boolean>;
  is_screener_first: Generated<boolean>;
  created_at: Timestamp;
}

export interface MediaTable {
  id: string;
  campaign_id: string;
  owner_id: string;
  kind: MediaKind;
  role: Generated<MediaRole>;
  filename: string;
  /** bigint: read back as a string (pg) or a number (PGlite); convert with Number(). */
  size: ColumnType<string | number | bigint, number, number>;
  mime: string;
  storage_key: string;
  status: MediaStatus;
  duration_seconds: number | null;
  fps: number | null;
  width: number | null;
  height: number | null;
  poster_key: string | null;
  /** Why the file failed: a code of MEDIA_ERROR_CODES (its message is the contracts'). */
  error: MediaErrorCode | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** Stored files whose media row is gone; filled by a trigger, emptied by a job. */
export interface StorageTrashTable {
  key: string;
  created_at: Timestamp;
}

/** A value of the categories directory (decision 016). */
export interface CategoryEntriesTable {
  id: Generated<string>;
  kind: CategoryKind;
  name: string;
  content_type: ContentType | null;
  created_by: string | null;
  created_at: Timestamp;
}
