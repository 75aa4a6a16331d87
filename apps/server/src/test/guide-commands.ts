import { type ChildProcess, spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

/**
 * The commands of an operator's guide (docs/deployment.md), run as the guide shows them: each fenced block
 * marked `test=<id>` in its info string (```sh test=migrate) is one bash script.
 */
export interface FencedBlock {
  /** The info string's first word (`sh`, `nginx`, …). */
  lang: string;
  /** The rest of the info string, split on spaces. */
  words: string[];
  /** `<id>` of a `test=<id>` word: the block is run by the test. */
  testId: string | undefined;
  body: string;
  /** Line of the opening fence (1-based), for messages. */
  line: number;
}

export function fencedBlocks(markdown: string): FencedBlock[] {
  const blocks: FencedBlock[] = [];
  for (const match of markdown.matchAll(/^```([^`\n]*)\n([\s\S]*?)^```[ \t]*$/gm)) {
    const [lang = '', ...words] = (match[1] ?? '').trim().split(/\s+/);
    const testId = words.find((w) => w.startsWith('test='))?.slice('test='.length);
    const line = markdown.slice(0, match.index).split('\n').length;
    blocks.push({ lang, words, testId, body: match[2] ?? '', line });
  }
  return blocks;
}

/** The part of a Markdown file under a `## title` heading, up to the next heading of that level or above. */
export function section(markdown: string, title: string): string {
  const lines = markdown.split('\n');
  const start = lines.findIndex((l) => l.trim() === `## ${title}`);
  if (start < 0) throw new Error(`no "## ${title}" section`);
  const end = lines.findIndex((l, i) => i > start && /^#{1,2} /.test(l));
  return lines.slice(start + 1, end < 0 ? undefined : end).join('\n');
}

/** The cells of a Markdown table's body rows (header and separator left out). */
export function tableRows(markdown: string): string[][] {
  const rows = markdown
    .split('\n')
    .filter((l) => l.trimStart().startsWith('|'))
    .map((l) =>
      l
        .trim()
        .replace(/^\||\|$/g, '')
        .split('|')
        .map((c) => c.trim()),
    );
  return rows.filter((cells, i) => i > 0 && !cells.every((c) => /^:?-+:?$/.test(c)));
}

/** The `code` spans of a Markdown text. */
export const codeSpans = (text: string): string[] => [...text.matchAll(/`([^`]+)`/g)].map((m) => m[1] ?? '');

/** A guide block running in bash in a process group of its own, with everything it printed. */
export interface RunningBlock {
  id: string;
  child: ChildProcess;
  /** The process group: bash and whatever it started in the background (`&`). */
  pgid: number;
  lines: string[];
  /** Resolves with bash's exit code when the script's foreground part has finished. */
  exited: Promise<number | null>;
}

/**
 * Runs a block's script with `bash -euo pipefail` (an unset variable fails it) in a new process group, so
 * that processes it leaves running in the background can be stopped together with `stopGroup`.
 */
export function runBlock(
  id: string,
  script: string,
  options: { cwd: string; env: Record<string, string> },
): RunningBlock {
  const child = spawn('bash', ['-euo', 'pipefail', '-c', script], {
    cwd: options.cwd,
    env: options.env,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: string[] = [];
  const take = () => {
    let rest = '';
    return (data: Buffer) => {
      const parts = (rest + data.toString()).split('\n');
      rest = parts.pop() ?? '';
      lines.push(...parts);
    };
  };
  child.stdout?.on('data', take());
  child.stderr?.on('data', take());
  const exited = new Promise<number | null>((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => resolve(code));
  });
  if (child.pid === undefined) throw new Error(`bash did not start for block ${id}`);
  return { id, child, pgid: child.pid, lines, exited };
}

/** Live (not zombie) processes of a process group, read from /proc. */
export function groupMembers(pgid: number): number[] {
  const members: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${name}/stat`, 'utf8');
    } catch {
      continue;
    }
    // pid (comm) state ppid pgrp …; comm may hold spaces and parentheses.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (fields[0] !== 'Z' && Number(fields[2]) === pgid) members.push(Number(name));
  }
  return members;
}

function signalGroup(pgid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pgid, signal);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ESRCH') throw error;
  }
}

/**
 * Sends `signal` to the block's process group and waits up to `seconds` for all of it to end; what is left
 * then is killed. Resolves with whether the group ended on the signal alone.
 */
export async function stopGroup(pgid: number, signal: NodeJS.Signals = 'SIGTERM', seconds = 30): Promise<boolean> {
  // A group already gone is not signalled: its number may belong to someone else's by now.
  if (groupMembers(pgid).length === 0) return true;
  signalGroup(pgid, signal);
  if (await ended(pgid, seconds)) return true;
  signalGroup(pgid, 'SIGKILL');
  await ended(pgid, 10);
  return false;
}

async function ended(pgid: number, seconds: number): Promise<boolean> {
  const until = Date.now() + seconds * 1000;
  while (groupMembers(pgid).length > 0) {
    if (Date.now() > until) return false;
    await new Promise((r) => setTimeout(r, 100));
  }
  return true;
}
