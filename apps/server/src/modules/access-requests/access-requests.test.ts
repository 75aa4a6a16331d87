import { ACCESS_REQUEST_LIMITS, accessRequestsOutput, convertAccessRequestOutput } from '@emolens/contracts';
import { beforeEach, describe, expect, it } from 'vitest';
import { Client, loggedIn, seedUser, TEST_BACKEND } from '../../test/harness.ts';
import { appPerFile } from '../../test/per-file.ts';

/** The form's limit per address and hour, low for the test (the default is 5). */
const PER_HOUR = 5;
const t = appPerFile({ accessRequestsPerHour: PER_HOUR });
let alice: Client;
let staff: Client;
let address = 0;

/** A visitor with no login, from an address of its own (the form's limit counts per address). */
const visitor = () => new Client(t.app, { address: `10.28.16.${++address}` });

const REQUEST = {
  name: 'Anna Petrova',
  company: 'Acme Foods',
  email: 'anna@acme.example',
  package: 'smart',
  message: 'We test six video ads a quarter.',
};
const send = (client: Client, body: unknown = REQUEST) =>
  client.request('POST', '/api/public/access-requests/', { body });

beforeEach(async () => {
  ({ alice } = await loggedIn(t.app, 'alice'));
  await seedUser(t.app, 'root', { role: 'super_user' });
  await seedUser(t.app, 'root2', { role: 'super_user' });
  staff = new Client(t.app);
  await staff.login('root');
});

describe(`requests for access on ${TEST_BACKEND}`, () => {
  it('keeps a request sent without a login and tells every staff member', async () => {
    const res = await send(visitor());
    expect(res.statusCode, res.body).toBe(201);
    const { id } = res.json();
    const list = accessRequestsOutput.parse((await staff.request('GET', '/api/cabinet/access-requests/')).json());
    expect(list.items).toEqual([
      expect.objectContaining({ id, ...REQUEST, status: 'new', handled_at: null, account: null }),
    ]);
    const notified = await t.database.db
      .selectFrom('notifications as n')
      .innerJoin('users as u', 'u.id', 'n.user_id')
      .select(['u.username', 'n.kind', 'n.params', 'n.link'])
      .orderBy('u.username')
      .execute();
    expect(notified).toEqual([
      {
        username: 'root',
        kind: 'access_requested',
        params: { name: 'Anna Petrova', company: 'Acme Foods' },
        link: '/cabinet/licences',
      },
      {
        username: 'root2',
        kind: 'access_requested',
        params: { name: 'Anna Petrova', company: 'Acme Foods' },
        link: '/cabinet/licences',
      },
    ]);
  });

  it('refuses what the form does not allow with 400 and the field messages, keeping nothing', async () => {
    const client = visitor();
    const cases: [Record<string, unknown>, string, string][] = [
      [{ ...REQUEST, email: 'not an address' }, 'email', 'validation.email'],
      [{ ...REQUEST, name: '   ' }, 'name', 'validation.required'],
      [{ ...REQUEST, package: 'platinum' }, 'package', 'validation.choice'],
      [{ ...REQUEST, message: 'x'.repeat(ACCESS_REQUEST_LIMITS.message + 1) }, 'message', 'validation.maxChars'],
    ];
    for (const [body, field, key] of cases.slice(0, 2)) {
      const res = await send(client, body);
      expect(res.statusCode, field).toBe(400);
      expect(res.json().field_keys[field].key, field).toBe(key);
    }
    // Another address: the limit is five an hour per address.
    const other = visitor();
    for (const [body, field, key] of cases.slice(2)) {
      const res = await send(other, body);
      expect(res.statusCode, field).toBe(400);
      expect(res.json().field_keys[field].key, field).toBe(key);
    }
    const unknown = await send(visitor(), { ...REQUEST, role: 'super_user' });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().field_keys.role.key).toBe('validation.unknownField');
    expect(await t.database.db.selectFrom('access_requests').selectAll().execute()).toEqual([]);
  });

  it(`answers 429 after ${PER_HOUR} requests an hour from one address`, async () => {
    const client = visitor();
    for (let i = 0; i < PER_HOUR; i++) {
      expect((await send(client, { ...REQUEST, email: `a${i}@acme.example` })).statusCode).toBe(201);
    }
    const limited = await send(client);
    expect(limited.statusCode).toBe(429);
    expect(limited.json().code).toBe('too_many_requests');
    // Another address is not held back.
    expect((await send(visitor())).statusCode).toBe(201);
  });

  it('lets staff alone list requests and turn one into a customer account, once', async () => {
    const { id } = (await send(visitor())).json();
    expect((await alice.request('GET', '/api/cabinet/access-requests/')).statusCode).toBe(403);
    expect((await alice.request('POST', `/api/cabinet/access-requests/${id}/account/`)).statusCode).toBe(403);
    expect((await new Client(t.app).request('GET', '/api/cabinet/access-requests/')).statusCode).toBe(401);

    const res = await staff.request('POST', `/api/cabinet/access-requests/${id}/account/`);
    expect(res.statusCode, res.body).toBe(201);
    const made = convertAccessRequestOutput.parse(res.json());
    expect(made.username).toBe('anna@acme.example');
    expect(made.password.length).toBeGreaterThanOrEqual(12);
    expect(made.request).toMatchObject({ status: 'done', account: { username: 'anna@acme.example' } });

    // The new customer logs in with the password shown once, and is a customer.
    const customer = new Client(t.app);
    expect((await customer.login(made.username, made.password)).statusCode).toBe(200);
    const data = (await customer.request('GET', '/api/users/user-data/')).json();
    expect(data).toMatchObject({ role: 'customer', first_name: 'Anna', last_name: 'Petrova' });
    expect(data.public_user_id).toBe(made.request.account?.public_user_id);

    const again = await staff.request('POST', `/api/cabinet/access-requests/${id}/account/`);
    expect(again.statusCode).toBe(409);
    expect(again.json().key).toBe('accessrequest.handled');
    const missing = await staff.request(
      'POST',
      '/api/cabinet/access-requests/00000000-0000-4000-8000-000000000000/account/',
    );
    expect(missing.statusCode).toBe(404);
    expect((await staff.request('POST', '/api/cabinet/access-requests/not-an-id/account/')).statusCode).toBe(404);
  });

  it('names the account after the e-mail, numbered when the name is taken', async () => {
    const first = (await send(visitor())).json().id;
    const second = (await send(visitor(), { ...REQUEST, email: 'ANNA@acme.example' })).json().id;
    const a = convertAccessRequestOutput.parse(
      (await staff.request('POST', `/api/cabinet/access-requests/${first}/account/`)).json(),
    );
    const b = convertAccessRequestOutput.parse(
      (await staff.request('POST', `/api/cabinet/access-requests/${second}/account/`)).json(),
    );
    expect([a.username, b.username]).toEqual(['anna@acme.example', 'anna@acme.example-2']);
  });
});
