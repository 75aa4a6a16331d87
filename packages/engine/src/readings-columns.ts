/**
 * The column layer of privacy mode's readings (readings.ts, decision 063): values quantised to a column's step,
 * stored as zigzagged LEB128 differences from the column's previous value, range-checked both ways; and the body's
 * deflate, inflated no further than a stated size. No Node import (the page encodes, the server decodes).
 */
import { EngineError } from './errors.ts';

/** Quantised values stay within ±(2^31 − 1); a varint is at most 5 bytes. */
const MAX_Q = 2 ** 31 - 1;
export const MAX_VARINT_BYTES = 5;

export const invalidReadings = (message: string) => new EngineError('invalid_readings', `Readings: ${message}`);
const invalid = invalidReadings;

function quantise(value: number, step: number, what: string): number {
  if (!Number.isFinite(value)) throw invalid(`${what} is not a finite number`);
  const q = Math.round(value / step);
  if (Math.abs(q) > MAX_Q) throw invalid(`${what} is out of range`);
  return q;
}

/** A growable byte buffer of varints. */
export class Writer {
  private bytes = new Uint8Array(4096);
  length = 0;

  private room(n: number): void {
    if (this.length + n <= this.bytes.length) return;
    const next = new Uint8Array(Math.max(this.bytes.length * 2, this.length + n));
    next.set(this.bytes.subarray(0, this.length));
    this.bytes = next;
  }

  /** An unsigned integer below 2^35, LEB128. */
  unsigned(value: number): void {
    this.room(MAX_VARINT_BYTES);
    let v = value;
    while (v >= 0x80) {
      this.bytes[this.length++] = (v % 0x80) | 0x80;
      v = Math.floor(v / 0x80);
    }
    this.bytes[this.length++] = v;
  }

  /** A signed integer, zigzagged (0, -1, 1, -2… → 0, 1, 2, 3…). */
  signed(value: number): void {
    this.unsigned(value < 0 ? -2 * value - 1 : 2 * value);
  }

  result(): Uint8Array<ArrayBuffer> {
    return this.bytes.slice(0, this.length);
  }
}

export class Reader {
  at = 0;
  constructor(private readonly bytes: Uint8Array) {}

  unsigned(): number {
    let value = 0;
    let scale = 1;
    for (let k = 0; k < MAX_VARINT_BYTES; k++) {
      if (this.at >= this.bytes.length) throw invalid('the body ends early');
      const b = this.bytes[this.at++] as number;
      value += (b & 0x7f) * scale;
      if (b < 0x80) return value;
      scale *= 0x80;
    }
    throw invalid('a value is too long');
  }

  signed(): number {
    const z = this.unsigned();
    return z % 2 === 1 ? -(z + 1) / 2 : z / 2;
  }

  get done(): boolean {
    return this.at === this.bytes.length;
  }
}

/** What a column holds: its step and the range its (quantised) values must lie in, both ways. */
export interface Spec {
  step: number;
  lo: number;
  hi: number;
  what: string;
}

function inRange(v: number, spec: Spec): number {
  if (!(v >= spec.lo && v <= spec.hi)) throw invalid(`${spec.what} ${v} is out of range`);
  return v;
}

/** A column's values as differences from the previous one. */
export function putColumn(w: Writer, values: readonly number[], spec: Spec): void {
  let previous = 0;
  for (const v of values) {
    const q = quantise(v, spec.step, spec.what);
    inRange(q * spec.step, spec);
    w.signed(q - previous);
    previous = q;
  }
}

export function readColumn(r: Reader, n: number, spec: Spec): number[] {
  const out = new Array<number>(n);
  let q = 0;
  for (let i = 0; i < n; i++) {
    q += r.signed();
    if (Math.abs(q) > MAX_Q) throw invalid(`${spec.what} is out of range`);
    out[i] = inRange(q * spec.step, spec);
  }
  return out;
}

export async function inflateAtMost(body: Uint8Array, limit: number): Promise<Uint8Array> {
  // A copy: the caller's bytes may sit in a shared buffer, which a Blob does not take.
  const reader = new Blob([new Uint8Array(body)]).stream().pipeThrough(new DecompressionStream('deflate')).getReader();
  const parts: Uint8Array[] = [];
  let total = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      total += value.byteLength;
      if (total > limit) throw invalid('the body inflates past its stated size');
      parts.push(value);
    }
  } catch (error) {
    await reader.cancel().catch(() => undefined);
    if (error instanceof EngineError) throw error;
    throw invalid('the body is not valid deflate data');
  }
  const out = new Uint8Array(total);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.byteLength;
  }
  return out;
}

export async function deflate(bytes: Uint8Array<ArrayBuffer>): Promise<Uint8Array> {
  const stream = new Blob([bytes]).stream().pipeThrough(new CompressionStream('deflate'));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}
