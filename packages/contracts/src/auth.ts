import { z } from 'zod';
import { LANGUAGES } from './languages.ts';
import { ROLES } from './roles.ts';

/** Shared required-field message of spec section 5. */
export const REQUIRED_MESSAGE = "This is a required field. Don't leave it empty";

/** Cookie and header names of the cabinet API (double-submit CSRF, spec section 7). */
export const SESSION_COOKIE = 'sessionid';
export const CSRF_COOKIE = 'csrftoken';
export const CSRF_HEADER = 'x-csrftoken';

export const usernameSchema = z
  .string({ error: REQUIRED_MESSAGE })
  .trim()
  .min(1, REQUIRED_MESSAGE)
  .max(150, 'At most 150 characters')
  .regex(/^[\w.@+-]+$/, 'Letters, digits and @/./+/-/_ only');

export const passwordSchema = z
  .string({ error: REQUIRED_MESSAGE })
  .min(1, REQUIRED_MESSAGE)
  .max(256, 'At most 256 characters');

/** Rules for a new password (CLI and, later, the cabinet). */
export const newPasswordSchema = z.string().min(10, 'At least 10 characters').max(256, 'At most 256 characters');

/** POST /api/auth/login/ */
export const loginInput = z.strictObject({
  username: z.string({ error: REQUIRED_MESSAGE }).trim().min(1, REQUIRED_MESSAGE).max(150),
  password: passwordSchema,
});
export type LoginInput = z.infer<typeof loginInput>;

/** GET /api/users/user-data/ (field names exactly as spec section 7). */
export const userDataOutput = z.object({
  role: z.enum(ROLES),
  username: z.string(),
  auth_token: z.string(),
  first_name: z.string(),
  last_name: z.string(),
  public_user_id: z.string(),
  current_lang: z.enum(LANGUAGES),
  is_armi_user: z.boolean(),
});
export type UserData = z.infer<typeof userDataOutput>;

/** PATCH /api/users/user-data/language/ */
export const setLanguageInput = z.strictObject({ current_lang: z.enum(LANGUAGES) });
export type SetLanguageInput = z.infer<typeof setLanguageInput>;

export const okOutput = z.object({ ok: z.literal(true) });
