/** Table types: Users, their sign-in, settings, API tokens, access requests and notifications. */
import type { ApiTokenScope, Language, NotificationKind, NotificationParams, Role } from '@emolens/contracts';
import type { ColumnType, Generated } from 'kysely';
import type { Timestamp } from './columns.ts';

export interface UsersTable {
  id: Generated<string>;
  public_user_id: string;
  username: string;
  password_hash: string;
  role: Role;
  is_armi_user: Generated<boolean>;
  first_name: Generated<string>;
  last_name: Generated<string>;
  email: string | null;
  current_lang: Generated<Language>;
  is_active: Generated<boolean>;
  created_at: Timestamp;
  updated_at: Timestamp;
  last_login_at: Date | null;
}

export interface AuthSessionsTable {
  id: Generated<string>;
  token_hash: string;
  user_id: string;
  created_at: Timestamp;
  last_seen_at: Timestamp;
  expires_at: Date;
  ip: string | null;
  user_agent: string | null;
}

/** A provider identity (issuer + subject) linked to an account by single sign-on (decision 067). */
export interface UserIdentitiesTable {
  id: Generated<string>;
  user_id: string;
  issuer: string;
  subject: string;
  /** The verified e-mail when it was linked; never used to match. */
  email: string;
  created_at: Timestamp;
  last_login_at: Timestamp;
}

export interface LoginFailuresTable {
  id: Generated<string>;
  username_key: string;
  ip: string;
  created_at: Timestamp;
}

export interface AppSettingsTable {
  key: string;
  value: string;
  created_at: Timestamp;
}

/** A request for access from the public pages (issue 28, item 16). */
export interface AccessRequestsTable {
  id: Generated<string>;
  name: string;
  company: string;
  email: string;
  package: string;
  message: Generated<string>;
  status: Generated<'new' | 'done'>;
  /** The customer account made from it. */
  user_id: string | null;
  handled_by: string | null;
  handled_at: Date | null;
  created_at: Timestamp;
}

/** A user's personal API token (issue 14), stored hashed. */
export interface ApiTokensTable {
  id: Generated<string>;
  user_id: string;
  scope: ApiTokenScope;
  description: Generated<string>;
  token_hash: string;
  prefix: string;
  created_at: Timestamp;
  last_used_at: Date | null;
  expires_at: Date | null;
  revoked_at: Date | null;
}

/** An in-cabinet notification (issue 15, item 6): unread while `read_at` is null. */
export interface NotificationsTable {
  id: Generated<string>;
  user_id: string;
  kind: NotificationKind;
  params: ColumnType<NotificationParams, string | undefined, string>;
  /** An in-app path (`/cabinet/…`), or none. */
  link: string | null;
  /** The event, so that it notifies its user once (`report:<id>:done:<generation>`). */
  dedupe_key: string | null;
  created_at: Timestamp;
  read_at: Date | null;
}
