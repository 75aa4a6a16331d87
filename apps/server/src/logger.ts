import { type FastifyReply, type FastifyRequest, type FastifyServerOptions, LogController } from 'fastify';
import pino, { type Logger } from 'pino';
import type { Config } from './config.ts';

/** Secrets never reach the logs: cookies, tokens and passwords are censored wherever they appear. */
export const REDACT_PATHS = [
  'req.headers.cookie',
  'req.headers.authorization',
  'req.headers["x-csrftoken"]',
  'res.headers["set-cookie"]',
  '*.password',
  '*.password_hash',
  '*.token',
  '*.auth_token',
];

const LEVELS: Record<number, { label: string; color: number }> = {
  10: { label: 'TRACE', color: 90 },
  20: { label: 'DEBUG', color: 36 },
  30: { label: 'INFO', color: 32 },
  40: { label: 'WARN', color: 33 },
  50: { label: 'ERROR', color: 31 },
  60: { label: 'FATAL', color: 35 },
};

/** Control characters from logged values (a username, a URL) would drive the terminal: shown escaped. */
function printable(text: string): string {
  let out = '';
  for (const ch of text) {
    const code = ch.codePointAt(0) ?? 0;
    out += code < 0x20 || (code >= 0x7f && code < 0xa0) ? `\\u${code.toString(16).padStart(4, '0')}` : ch;
  }
  return out;
}

/**
 * One pino JSON line as one line for people: `12:04:05 WARN  message key=value …`, the stack of an
 * error on the lines below. Anything that is not a pino line is passed through.
 */
export function formatForPeople(line: string, color = false): string {
  let entry: Record<string, unknown>;
  try {
    entry = JSON.parse(line);
  } catch {
    return line;
  }
  const { level, time, msg, pid: _pid, hostname: _hostname, reqId: _reqId, err, ...rest } = entry;
  const known = LEVELS[Number(level)] ?? { label: String(level), color: 0 };
  const label = known.label.padEnd(5);
  const clock = new Date(Number(time)).toTimeString().slice(0, 8);
  const fields = Object.entries(rest).map(
    ([key, value]) => `${key}=${printable(typeof value === 'string' ? value : JSON.stringify(value))}`,
  );
  const head = [clock, color ? `\x1b[${known.color}m${label}\x1b[0m` : label, printable(String(msg ?? '')), ...fields]
    .filter(Boolean)
    .join(' ');
  const stack = (err as { stack?: unknown } | undefined)?.stack;
  const detail =
    typeof stack === 'string'
      ? `\n${stack
          .split('\n')
          .map((l) => `    ${printable(l)}`)
          .join('\n')}`
      : '';
  return `${head}${detail}\n`;
}

// Loggers that write for people; the app logs requests differently for them (requestLogging).
const forPeople = new WeakSet<Logger>();

export function isForPeople(logger: Logger): boolean {
  return forPeople.has(logger);
}

/**
 * JSON lines, one per event, for machines (production, CI, a file or a collector). When the output
 * is a terminal (`npm start`), lines for people instead, with requests at debug level so that they do
 * not push what the server printed on start (the address, the demo account) off the screen.
 */
export function createLogger(
  config: Pick<Config, 'logLevel'>,
  options: { forPeople?: boolean; destination?: NodeJS.WritableStream } = {},
): Logger {
  const people = options.forPeople ?? process.stdout.isTTY === true;
  const settings = { level: config.logLevel, redact: { paths: REDACT_PATHS, censor: '[redacted]' } };
  const destination = options.destination ?? process.stdout;
  if (!people) return options.destination ? pino(settings, options.destination) : pino(settings);
  const color = 'isTTY' in destination && destination.isTTY === true;
  const logger = pino(settings, { write: (line: string) => destination.write(formatForPeople(line, color)) });
  forPeople.add(logger);
  return logger;
}

/** Fastify's request log lines for people: one line when a request ends, at debug level. */
class RequestLinesForPeople extends LogController {
  override incomingRequest(): void {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    const line = `${request.method} ${request.url} ${reply.statusCode} ${Math.round(reply.elapsedTime)} ms`;
    if (error) reply.log.error({ err: error }, line);
    else reply.log.debug(line);
  }
}

/**
 * Fastify's options for how requests are logged with this logger: as Fastify does by default for JSON
 * lines; for people, one line per request at debug level, and what a request logs at info (a rejected
 * input, a login) at debug too.
 */
export function requestLogging(logger: Logger): Pick<FastifyServerOptions, 'logController' | 'childLoggerFactory'> {
  if (!isForPeople(logger)) return {};
  return {
    logController: new RequestLinesForPeople(),
    childLoggerFactory: (parent, bindings, options) => {
      const child = parent.child(bindings, options);
      // pino keeps each level's method on the logger itself: this request's info is its debug.
      child.info = child.debug.bind(child);
      return child;
    },
  };
}
