import { beforeEach, describe, expect, it } from 'vitest';
import { AppError } from '../../http/errors.ts';
import { Client, seedUser, TEST_PASSWORD } from '../../test/harness.ts';
import { appPerFile } from '../../test/per-file.ts';
import { verifyPassword } from '../auth/password.ts';
import { createUser, setPassword } from './users.service.ts';

const t = appPerFile();
let client: Client;
beforeEach(async () => {
  await seedUser(t.app);
  client = new Client(t.app);
  await client.login();
});

describe('user language', () => {
  it("stores the user's interface language", async () => {
    const res = await client.request('PATCH', '/api/users/user-data/language/', { body: { current_lang: 'ko' } });
    expect(res.statusCode).toBe(200);
    expect(res.json().current_lang).toBe('ko');
    expect((await client.request('GET', '/api/users/user-data/')).json().current_lang).toBe('ko');
  });

  it('rejects a language the product does not have', async () => {
    const res = await client.request('PATCH', '/api/users/user-data/language/', { body: { current_lang: 'de' } });
    expect(res.statusCode).toBe(400);
    expect(res.json().fields.current_lang).toBeDefined();
    expect((await client.request('GET', '/api/users/user-data/')).json().current_lang).toBe('ru');
  });

  it('needs a session', async () => {
    const anonymous = new Client(t.app);
    const res = await anonymous.request('PATCH', '/api/users/user-data/language/', { body: { current_lang: 'en' } });
    expect(res.statusCode).toBe(401);
  });
});

describe('creating users', () => {
  it('hashes the password with scrypt and gives a public id', async () => {
    const user = await createUser(t.app.ctx.deps.users, {
      username: 'armi',
      password: 'a long enough password',
      role: 'armi_user',
      isArmiUser: true,
    });
    expect(user.password_hash).toMatch(/^scrypt\$32768\$8\$1\$/);
    expect(user.password_hash).not.toContain('a long enough password');
    expect(user.is_armi_user).toBe(true);
    const data = (await new Client(t.app).login('armi', 'a long enough password')).json();
    expect(data).toMatchObject({ role: 'armi_user', is_armi_user: true });
  });

  it('refuses a taken username whatever its case, and a short password', async () => {
    const attempt = createUser(t.app.ctx.deps.users, { username: 'Analyst', password: 'short', role: 'customer' });
    await expect(attempt).rejects.toBeInstanceOf(AppError);
    await expect(attempt).rejects.toMatchObject({
      fields: { username: 'A user with that username already exists', password: 'At least 10 characters' },
    });
  });

  it('changes a password', async () => {
    await setPassword(t.app.ctx.deps.users, 'analyst', 'a brand new password');
    const user = await t.app.ctx.deps.users.findByUsername('analyst');
    expect(await verifyPassword('a brand new password', user?.password_hash ?? '')).toBe(true);
    expect(await verifyPassword(TEST_PASSWORD, user?.password_hash ?? '')).toBe(false);
  });
});
