/**
 * A small in-memory Prolific API for tests: it answers the calls of integrations/prolific/client.ts over real HTTP
 * as Prolific's public API reference describes them (sources at the top of that file), and lets a test play the
 * participants. Split by what it holds: state.ts (the world and its scripting), routes.ts (the resources); the HTTP
 * plumbing is ../http.ts.
 *
 * What it models:
 * - `Authorization: Token <token>` checked against `state.tokens`: 401 with Prolific's error body otherwise;
 * - studies made as drafts (UNPUBLISHED) with their required fields checked (400 with `detail` by field), read,
 *   and moved by POST …/transition/ (PUBLISH from UNPUBLISHED with enough balance, PAUSE from ACTIVE, START from
 *   PAUSED, STOP from ACTIVE or PAUSED to AWAITING REVIEW or COMPLETED; anything else 400);
 * - submissions started by a participant (`state.startSubmission`: the study URL with PROLIFIC_PID, STUDY_ID and
 *   SESSION_ID filled in) and completed with a code (`state.complete`, running the code's actions), listed a page at
 *   a time (`_links.next.href`), approved or rejected once from AWAITING REVIEW (a rejection needs a message of at
 *   least 100 characters and a rejection_category; the same transition again is ignored), and asked to return;
 * - `state.failNext(path, status, body)` for provider failures, and `state.requests`, a log without headers.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { type ContractServer, listen, readBody, sendAnswer } from '../http.ts';
import { errorAnswer, route } from './routes.ts';
import { type ContractRequest, ProlificContractState } from './state.ts';

const API = '/api/v1';
const MAX_BODY_BYTES = 1_000_000;

async function handle(state: ProlificContractState, base: () => string, req: IncomingMessage, res: ServerResponse) {
  const url = new URL(req.url ?? '/', 'http://contract.local');
  const method = (req.method ?? 'GET').toUpperCase();
  const entry: ContractRequest = { method, path: url.pathname, body: undefined, auth: 'missing', status: 0 };
  state.requests.push(entry);
  const reply = (status: number, body: unknown) => {
    entry.status = status;
    sendAnswer(res, status, body);
  };
  let body: unknown;
  try {
    const text = (await readBody(req, MAX_BODY_BYTES)).toString('utf8');
    body = text.trim() ? JSON.parse(text) : undefined;
  } catch {
    const answer = errorAnswer(400, 'Invalid request', 'The body is not JSON.');
    return reply(answer.status, answer.body);
  }
  entry.body = body;
  const header = req.headers.authorization;
  const token = typeof header === 'string' ? /^Token (.+)$/.exec(header)?.[1] : undefined;
  entry.auth = !header ? 'missing' : token && state.tokens.has(token) ? 'ok' : 'invalid';

  const injected = state.takeInjection(url.pathname, method);
  if (injected) return reply(injected.status, injected.body);
  if (entry.auth !== 'ok') {
    const answer = errorAnswer(401, 'Unauthorized', 'Invalid token.');
    return reply(answer.status, answer.body);
  }
  if (!url.pathname.startsWith(`${API}/`)) {
    const answer = errorAnswer(404, 'Not found', 'No such resource.');
    return reply(answer.status, answer.body);
  }
  const query = Object.fromEntries(url.searchParams);
  const answer = route(state, method, url.pathname.slice(API.length), method === 'GET' ? query : body, base());
  return reply(answer.status, answer.body);
}

export type ProlificContractServer = ContractServer<ProlificContractState>;

/** Starts the contract server on 127.0.0.1 (port 0: any free port). `url` is the client's baseUrl. */
export async function startProlificContractServer(
  options: { port?: number; tokens?: string[]; balance?: number } = {},
): Promise<ProlificContractServer> {
  const state = new ProlificContractState({ tokens: options.tokens, balance: options.balance });
  let url = '';
  const server = await listen(
    state,
    async (req, res) => {
      try {
        await handle(state, () => url, req, res);
      } catch (error) {
        if (res.headersSent) res.destroy();
        else sendAnswer(res, 500, errorAnswer(500, 'Server error', `Contract server failure: ${String(error)}`).body);
      }
    },
    options.port,
  );
  url = server.url;
  return server;
}

export { ProlificContractState } from './state.ts';
