/**
 * The recorder's chunks in IndexedDB (design section 6): each chunk stays here until the server has
 * acknowledged it, so a flaky connection, a closed tab or a reload loses nothing.
 */

export interface StoredChunk {
  session: string;
  segment: number;
  index: number;
  data: ArrayBuffer;
}

export interface ChunkStore {
  put(chunk: StoredChunk): Promise<void>;
  /** The chunks of a session not yet acknowledged, in order of (segment, index). */
  pending(session: string): Promise<StoredChunk[]>;
  remove(session: string, segment: number, index: number): Promise<void>;
  close(): void;
}

const DB_NAME = 'emolens-respondent';
const STORE = 'chunks';

function request<T>(req: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error);
  });
}

function done(tx: IDBTransaction): Promise<void> {
  return new Promise((resolve, reject) => {
    tx.oncomplete = () => resolve();
    tx.onerror = () => reject(tx.error);
    tx.onabort = () => reject(tx.error ?? new Error('IndexedDB transaction aborted'));
  });
}

/** Opens the store (`factory`: the browser's IndexedDB, or a fake one in tests). */
export async function openChunkStore(factory: IDBFactory = indexedDB): Promise<ChunkStore> {
  const open = factory.open(DB_NAME, 1);
  open.onupgradeneeded = () => {
    open.result.createObjectStore(STORE, { keyPath: ['session', 'segment', 'index'] });
  };
  const db = await request(open);
  return {
    async put(chunk) {
      const tx = db.transaction(STORE, 'readwrite');
      tx.objectStore(STORE).put(chunk);
      await done(tx);
    },
    async pending(session) {
      const tx = db.transaction(STORE, 'readonly');
      // Keys sort by session, then segment, then index: the range is the session's chunks in order.
      const range = IDBKeyRange.bound([session, -Infinity, -Infinity], [session, Infinity, Infinity]);
      const rows = (await request(tx.objectStore(STORE).getAll(range))) as StoredChunk[];
      return rows;
    },
    async remove(session, segment, index) {
      const tx = db.transaction(STORE, 'readwrite');
      tx.objectStore(STORE).delete([session, segment, index]);
      await done(tx);
    },
    close() {
      db.close();
    },
  };
}

/** A store in memory, for a browser without IndexedDB (private modes): still sends every chunk. */
export function memoryChunkStore(): ChunkStore {
  const rows = new Map<string, StoredChunk>();
  const key = (s: string, g: number, i: number) =>
    `${s}\u0000${String(g).padStart(6, '0')}\u0000${String(i).padStart(6, '0')}`;
  return {
    async put(chunk) {
      rows.set(key(chunk.session, chunk.segment, chunk.index), chunk);
    },
    async pending(session) {
      return [...rows.entries()]
        .filter(([, c]) => c.session === session)
        .sort(([a], [b]) => (a < b ? -1 : 1))
        .map(([, c]) => c);
    },
    async remove(session, segment, index) {
      rows.delete(key(session, segment, index));
    },
    close() {},
  };
}
