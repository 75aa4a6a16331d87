import { z } from 'zod';
import { LANGUAGES } from './languages.ts';
import { msg } from './messages.ts';
import { ROLES } from './roles.ts';

/** Cookie and header names of the cabinet API (double-submit CSRF, spec section 7). */
export const SESSION_COOKIE = 'sessionid';
export const CSRF_COOKIE = 'csrftoken';
export const CSRF_HEADER = 'x-csrftoken';

const required = msg('validation.required');

export const usernameSchema = z
  .string({ error: required })
  .trim()
  .min(1, required)
  .max(150, msg('validation.maxChars', { max: 150 }))
  .regex(/^[\w.@+-]+$/, msg('validation.usernameChars'));

export const passwordSchema = z
  .string({ error: required })
  .min(1, required)
  .max(256, msg('validation.maxChars', { max: 256 }));

/** Rules for a new password (CLI and, later, the cabinet). */
export const newPasswordSchema = z
  .string()
  .min(10, msg('validation.minChars', { min: 10 }))
  .max(256, msg('validation.maxChars', { max: 256 }));

/** POST /api/auth/login/ */
export const loginInput = z.strictObject({
  username: z.string({ error: required }).trim().min(1, required).max(150),
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
