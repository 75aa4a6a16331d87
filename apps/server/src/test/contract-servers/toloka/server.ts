/**
 * A small in-memory Toloka API for tests: it answers the calls of integrations/toloka/client.ts over real HTTP
 * the way the public documentation describes them (sources listed at the top of client.ts), and lets a test
 * script the world. Split by what it holds: model.ts (records, answers, checks), state.ts (the world and its
 * scripting), routes.ts and assignments.ts (the resources); the HTTP plumbing is ../http.ts.
 *
 * What it models:
 * - `Authorization: OAuth <token>` checked against `state.tokens` (401 AUTHENTICATION_ERROR otherwise);
 * - projects, pools, tasks, assignments and operations kept in memory, required fields validated
 *   (400 VALIDATION_ERROR with `payload: { "<field path>": { code, message } }`, the per-field form Toloka uses
 *   for task validation errors);
 * - open/close as asynchronous operations: PENDING, then RUNNING after `operationDelayMs`, then finished after
 *   twice that; the state moves when a request arrives, so with `operationDelayMs = 0` the operation finishes
 *   on the next request; 204 when the pool already is in the requested state;
 * - the balance check on open. ASSUMPTION (Toloka documents that a pool needs enough money "to pay for the pool
 *   tasks, including the overlap", and that the fee is "a percentage of the cost of tasks", without the figure
 *   or the exact failure shape): cost = reward_per_assignment × (Σ task overlap − assignments already taken) ×
 *   (1 + feeRate), feeRate 0.3 by default. When the cost exceeds the balance the pool ends CLOSED with
 *   last_close_reason NOT_ENOUGH_BALANCE; `balanceFailure` picks how: 'operation-fail' (POOL.OPEN ends FAIL,
 *   the default), 'open-then-close' (POOL.OPEN ends SUCCESS, the pool closes at once), or 'conflict' (the open
 *   call answers 409 NOT_ENOUGH_BALANCE, as open-pool.md allows for "cannot be opened");
 * - accept/reject: SUBMITTED→ACCEPTED, SUBMITTED→REJECTED, REJECTED→ACCEPTED; anything else answers
 *   409 INAPPROPRIATE_STATUS with `payload.appropriate_statuses` (the sample in errors.md). Accepting charges
 *   reward × (1 + feeRate) to the balance. A rejection needs a comment (as in Toloka's review screen).
 *
 * Scripting: `state.setBalance(n)`, `state.addAssignment(poolId, { user_id, code, status })`,
 * `state.closeForBalance(poolId)`, `state.failNext(path, status, body?, { times, headers, method })`,
 * `state.delayNext(path, ms)`, and `state.requests`, a log of every request without its headers (so no token).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { type ContractServer, listen, readBody, sendAnswer } from '../http.ts';
import { API, type ContractRequest, errorAnswer, HttpAnswer, MAX_BODY_BYTES, VALIDATION } from './model.ts';
import { routes } from './routes.ts';
import { TolokaContractState } from './state.ts';

const send = (res: ServerResponse, answer: HttpAnswer) => sendAnswer(res, answer.status, answer.body, answer.headers);

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

async function handle(state: TolokaContractState, req: IncomingMessage, res: ServerResponse) {
  const url = new URL(req.url ?? '/', 'http://contract.local');
  const method = (req.method ?? 'GET').toUpperCase();
  const entry: ContractRequest = {
    method,
    path: url.pathname,
    query: Object.fromEntries(url.searchParams),
    body: undefined,
    auth: 'missing',
    status: 0,
  };
  state.requests.push(entry);
  const reply = (answer: HttpAnswer) => {
    entry.status = answer.status;
    send(res, answer);
  };

  let text: string;
  try {
    text = (await readBody(req, MAX_BODY_BYTES)).toString('utf8');
  } catch {
    return reply(errorAnswer(400, VALIDATION.code, 'Request body too large'));
  }
  let body: unknown;
  if (text.trim() !== '') {
    try {
      body = JSON.parse(text);
    } catch {
      entry.body = text;
      return reply(
        errorAnswer(400, VALIDATION.code, 'Request body is not JSON', {
          '': { code: 'JSON_EXPECTED', message: 'JSON expected' },
        }),
      );
    }
  }
  entry.body = body;

  const authorization = req.headers.authorization;
  const match = typeof authorization === 'string' ? /^OAuth (.+)$/.exec(authorization) : null;
  entry.auth = !authorization ? 'missing' : match?.[1] && state.tokens.has(match[1]) ? 'ok' : 'invalid';

  let injection = state.takeInjection(url.pathname, method);
  while (injection && injection.status === 0) {
    await sleep(injection.delayMs);
    injection = state.takeInjection(url.pathname, method);
  }
  if (injection) return reply(new HttpAnswer(injection.status, injection.body, injection.headers));

  if (entry.auth !== 'ok') {
    return reply(errorAnswer(401, 'AUTHENTICATION_ERROR', 'Missing or invalid OAuth token'));
  }
  if (!url.pathname.startsWith(`${API}/`)) return reply(errorAnswer(404, 'DOES_NOT_EXIST', 'No such resource'));
  const path = url.pathname.slice(API.length);

  state.tick();
  for (const route of routes) {
    if (route.method !== method) continue;
    const m = route.pattern.exec(path);
    if (!m) continue;
    return reply(route.handle({ state, body, query: url.searchParams, id: decodeURIComponent(m[1] ?? '') }));
  }
  return reply(errorAnswer(404, 'DOES_NOT_EXIST', `No resource ${method} ${url.pathname}`));
}

export type TolokaContractServer = ContractServer<TolokaContractState>;

/** Starts the contract server on 127.0.0.1 (port 0: any free port). `url` is the client's baseUrl. */
export function startTolokaContractServer(
  options: { port?: number; tokens?: string[]; balance?: number } = {},
): Promise<TolokaContractServer> {
  const state = new TolokaContractState({ tokens: options.tokens, balance: options.balance });
  return listen(
    state,
    async (req, res) => {
      try {
        await handle(state, req, res);
      } catch (error) {
        if (res.headersSent) res.destroy();
        else send(res, errorAnswer(500, 'INTERNAL_ERROR', `Contract server failure: ${String(error)}`));
      }
    },
    options.port,
  );
}

export { TolokaContractState } from './state.ts';
