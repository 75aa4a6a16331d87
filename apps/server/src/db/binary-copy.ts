import type pg from 'pg';

/**
 * A query's rows in PostgreSQL's binary COPY format (`COPY (query) TO STDOUT WITH (FORMAT binary)`): each value as
 * the bytes of its binary form, so a bytea comes as its raw bytes. Through a query's ordinary (text) answer the
 * server writes a bytea as hex and the client decodes it back — twice the bytes on the wire, CPU on both sides, and
 * on the embedded PGlite a per-byte parser (seconds for 14 MB, measured: decision 026). The `pg` driver's
 * `binary: true` cannot stand in: it reads every value as UTF-8 text first, which mangles arbitrary bytes.
 */

const SIGNATURE = [0x50, 0x47, 0x43, 0x4f, 0x50, 0x59, 0x0a, 0xff, 0x0d, 0x0a, 0x00]; // "PGCOPY\n\377\r\n\0"

/**
 * The rows of a binary COPY: per row, each field's bytes (views into `bytes`, not copies) or null. A text field's
 * bytes are its UTF-8; a uuid is 16 bytes (select `id::text` to get the usual form).
 */
export function readBinaryCopy(bytes: Uint8Array): (Uint8Array | null)[][] {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (bytes.byteLength < 19 || SIGNATURE.some((b, i) => bytes[i] !== b)) {
    throw new Error('not PostgreSQL binary COPY data');
  }
  // The signature, 32 bits of flags, then a header extension of the length given.
  let at = 15;
  at += 4 + view.getUint32(at);
  const rows: (Uint8Array | null)[][] = [];
  for (;;) {
    const fields = view.getInt16(at);
    at += 2;
    if (fields === -1) return rows;
    const row: (Uint8Array | null)[] = new Array(fields);
    for (let f = 0; f < fields; f++) {
      const length = view.getInt32(at);
      at += 4;
      if (length === -1) {
        row[f] = null;
      } else {
        row[f] = bytes.subarray(at, at + length);
        at += length;
      }
    }
    rows.push(row);
  }
}

const copyOf = (query: string, target: string) => `copy (${query}) to ${target} with (format binary)`;

/** The statement PGlite runs: its COPY writes to a Blob (`/dev/blob`) the result hands back. */
export const pgliteCopy = (query: string) => copyOf(query, `'/dev/blob'`);

/**
 * Runs `COPY (query) TO STDOUT` in binary format on a PostgreSQL connection and answers its bytes (`readBinaryCopy`
 * reads them). The connection is not released: the caller owns it.
 */
export function copyOut(client: pg.ClientBase, query: string): Promise<Uint8Array> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let failed = false;
    // A submittable (what `pg` takes besides its own queries): the protocol's copy-out messages, handed to us.
    const submittable = {
      submit(connection: { query(text: string): void }) {
        connection.query(copyOf(query, 'stdout'));
      },
      handleCopyOutResponse() {},
      handleCopyData(message: { chunk: Buffer }) {
        // The parser's buffer is reused for the next messages: keep a copy.
        chunks.push(Buffer.from(message.chunk));
        size += message.chunk.length;
      },
      handleRowDescription() {},
      handleDataRow() {},
      handleCommandComplete() {},
      handleEmptyQuery() {},
      // A failed statement is followed by ready-for-query; a lost connection is not.
      handleError(err: Error) {
        failed = true;
        reject(err);
      },
      handleReadyForQuery() {
        if (!failed) resolve(Buffer.concat(chunks, size));
      },
    };
    (client as unknown as { query(s: typeof submittable): void }).query(submittable);
  });
}
