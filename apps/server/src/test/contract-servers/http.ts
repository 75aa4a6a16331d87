import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * The HTTP plumbing every contract server shares (the fakes of the recruiting platforms' APIs, issue 29 item 3):
 * reading a bounded body, writing an answer, and listening on 127.0.0.1 until closed. A platform's fake keeps only
 * its own protocol (paths, authentication, errors) and state.
 */

/** A request body over the server's limit. */
export class BodyTooLarge extends Error {}

/** The request's body, refused past `maxBytes`. */
export async function readBody(req: IncomingMessage, maxBytes: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    const buffer = chunk as Buffer;
    size += buffer.length;
    if (size > maxBytes) throw new BodyTooLarge();
    chunks.push(buffer);
  }
  return Buffer.concat(chunks);
}

/** Writes an answer: a string as text (unless the headers say otherwise), anything else as JSON; 204 has none. */
export function sendAnswer(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
  jsonType = 'application/json',
): void {
  if (res.destroyed) return;
  const head: Record<string, string> = { ...headers };
  let payload = '';
  if (status !== 204 && body !== undefined) {
    if (typeof body === 'string') {
      payload = body;
      head['Content-Type'] ??= 'text/plain; charset=utf-8';
    } else {
      payload = JSON.stringify(body);
      head['Content-Type'] ??= jsonType;
    }
  }
  res.writeHead(status, head);
  res.end(payload);
}

/** A running contract server: the base URL its client is pointed at, the scripted state, and how to stop it. */
export interface ContractServer<State> {
  url: string;
  state: State;
  close(): Promise<void>;
}

/** Serves `handle` on 127.0.0.1 (port 0: any free port). */
export async function listen<State>(
  state: State,
  handle: (req: IncomingMessage, res: ServerResponse) => Promise<void>,
  port = 0,
): Promise<ContractServer<State>> {
  const server = createServer((req, res) => {
    handle(req, res).catch(() => {
      if (!res.headersSent) sendAnswer(res, 500, 'Contract server failure');
      else res.destroy();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  const { port: bound } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${bound}`,
    state,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}
