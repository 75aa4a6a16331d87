import { randomInt } from 'node:crypto';
import {
  issueMessage,
  type Language,
  type MessageRef,
  newPasswordSchema,
  type Role,
  type UserData,
  usernameSchema,
} from '@emolens/contracts';
import type { User } from '../../db/types.ts';
import { AppError } from '../../http/errors.ts';
import { hashPassword } from '../auth/password.ts';
import type { UsersRepository } from './users.repository.ts';

// Crockford base32 without look-alikes: public ids are read out and typed by people (owner change).
const ID_ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

export function newPublicUserId(): string {
  let id = '';
  for (let i = 0; i < 8; i++) id += ID_ALPHABET[randomInt(ID_ALPHABET.length)];
  return id;
}

export interface CreateUserInput {
  username: string;
  password: string;
  role: Role;
  isArmiUser?: boolean;
  firstName?: string;
  lastName?: string;
  email?: string | null;
  currentLang?: Language;
}

export async function createUser(users: UsersRepository, input: CreateUserInput): Promise<User> {
  const fields: Record<string, MessageRef> = {};
  const username = usernameSchema.safeParse(input.username);
  if (!username.success) fields.username = issueMessage(username.error.issues[0] ?? {});
  const password = newPasswordSchema.safeParse(input.password);
  if (!password.success) fields.password = issueMessage(password.error.issues[0] ?? {});
  if (username.success && (await users.findByUsername(username.data))) {
    fields.username = { key: 'user.usernameTaken' };
  }
  if (Object.keys(fields).length > 0 || !username.success) throw new AppError('validation_failed', { fields });
  return users.insert({
    public_user_id: newPublicUserId(),
    username: username.data,
    password_hash: await hashPassword(input.password),
    role: input.role,
    is_armi_user: input.isArmiUser ?? false,
    first_name: input.firstName ?? '',
    last_name: input.lastName ?? '',
    email: input.email ?? null,
    current_lang: input.currentLang ?? 'ru',
  });
}

export async function setPassword(users: UsersRepository, username: string, password: string): Promise<void> {
  const parsed = newPasswordSchema.safeParse(password);
  if (!parsed.success) {
    throw new AppError('validation_failed', { fields: { password: issueMessage(parsed.error.issues[0] ?? {}) } });
  }
  const user = await users.findByUsername(username);
  if (!user) throw new AppError('not_found', { message: 'user.doesNotExist' });
  await users.update(user.id, { password_hash: await hashPassword(password) });
}

export function toUserData(user: User, authToken: string): UserData {
  return {
    role: user.role,
    username: user.username,
    auth_token: authToken,
    first_name: user.first_name,
    last_name: user.last_name,
    public_user_id: user.public_user_id,
    current_lang: user.current_lang,
    is_armi_user: user.is_armi_user,
  };
}
