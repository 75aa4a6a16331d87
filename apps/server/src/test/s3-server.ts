import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import type { IncomingMessage, Server } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import type { StorageConfig } from '../config.ts';

/** The part of s3rver (3.7.1, untyped CommonJS, a Koa application) the tests use. */
interface S3rverInstance {
  run(): Promise<AddressInfo>;
  close(): Promise<void>;
  httpServer?: Server;
  /** Koa's middleware, composed when the server starts. */
  middleware: KoaMiddleware[];
  store: { getResourcePath(bucket: string, key: string | undefined, resource: string): string };
}
interface KoaContext {
  method: string;
  path: string;
  query: Record<string, string | string[] | undefined>;
  status: number;
  body: unknown;
  type: string;
}
type KoaMiddleware = (ctx: KoaContext, next: () => Promise<void>) => Promise<void> | void;

const xml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/**
 * The multipart operations s3rver lacks and `@tus/s3-store` uses, written from the Amazon S3 API reference over
 * s3rver's own record of a multipart upload (a folder per upload id with the key, and a file per part):
 * ListParts (`GET /bucket/key?uploadId`), AbortMultipartUpload (`DELETE /bucket/key?uploadId`) and
 * ListMultipartUploads (`GET /bucket?uploads`, one page). Signatures are not checked on these three.
 */
function multipartOperations(s3rver: S3rverInstance): KoaMiddleware {
  const uploadsOf = (bucket: string) => s3rver.store.getResourcePath(bucket, undefined, 'uploads');
  const noSuchUpload = (ctx: KoaContext) => {
    ctx.status = 404;
    ctx.type = 'application/xml';
    ctx.body =
      '<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>NoSuchUpload</Code><Message>The specified upload does not exist.</Message></Error>';
  };
  return async (ctx, next) => {
    const [, bucket = '', ...keyParts] = ctx.path.split('/');
    const key = decodeURIComponent(keyParts.join('/'));
    const uploadId = typeof ctx.query.uploadId === 'string' ? ctx.query.uploadId : undefined;
    if (key && uploadId && /^[0-9a-f]+$/.test(uploadId) && (ctx.method === 'GET' || ctx.method === 'DELETE')) {
      const dir = join(uploadsOf(bucket), uploadId);
      const names = await readdir(dir).catch(() => undefined);
      if (!names) return noSuchUpload(ctx);
      if (ctx.method === 'DELETE') {
        await rm(dir, { recursive: true, force: true });
        ctx.status = 204;
        return;
      }
      const numbers = names
        .filter((n) => /^\d+$/.test(n))
        .map(Number)
        .sort((a, b) => a - b);
      const parts = await Promise.all(
        numbers.map(async (n) => {
          const bytes = await readFile(join(dir, String(n)));
          const info = await stat(join(dir, String(n)));
          const etag = createHash('md5').update(bytes).digest('hex');
          return `<Part><PartNumber>${n}</PartNumber><LastModified>${info.mtime.toISOString()}</LastModified><ETag>"${etag}"</ETag><Size>${bytes.length}</Size></Part>`;
        }),
      );
      ctx.type = 'application/xml';
      ctx.body = `<?xml version="1.0" encoding="UTF-8"?>\n<ListPartsResult><Bucket>${xml(bucket)}</Bucket><Key>${xml(key)}</Key><UploadId>${uploadId}</UploadId><PartNumberMarker>0</PartNumberMarker><NextPartNumberMarker>${numbers.at(-1) ?? 0}</NextPartNumberMarker><MaxParts>10000</MaxParts><IsTruncated>false</IsTruncated>${parts.join('')}</ListPartsResult>`;
      return;
    }
    if (!key && bucket && ctx.method === 'GET' && 'uploads' in ctx.query) {
      const root = uploadsOf(bucket);
      const ids = (await readdir(root).catch(() => [] as string[])).sort();
      const uploads = await Promise.all(
        ids.map(async (id) => {
          const [upload, info] = await Promise.all([
            readFile(join(root, id, 'key'), 'utf8'),
            stat(join(root, id, 'key')),
          ]);
          return `<Upload><Key>${xml(upload)}</Key><UploadId>${id}</UploadId><Initiated>${info.mtime.toISOString()}</Initiated></Upload>`;
        }),
      );
      ctx.type = 'application/xml';
      ctx.body = `<?xml version="1.0" encoding="UTF-8"?>\n<ListMultipartUploadsResult><Bucket>${xml(bucket)}</Bucket><IsTruncated>false</IsTruncated>${uploads.join('')}</ListMultipartUploadsResult>`;
      return;
    }
    await next();
  };
}
type S3rverClass = new (options: {
  address: string;
  port: number;
  directory: string;
  silent: boolean;
  resetOnClose: boolean;
  vhostBuckets: boolean;
  configureBuckets: { name: string }[];
}) => S3rverInstance;

const S3rver = createRequire(import.meta.url)('s3rver') as S3rverClass;

export interface TestS3Server {
  /** `http://127.0.0.1:<port>`. */
  endpoint: string;
  bucket: string;
  accessKeyId: string;
  secretAccessKey: string;
  region: string;
  /** Where s3rver keeps the objects (removed by `stop`; read them through the S3 API, not here). */
  dir: string;
  /** The S3_* environment variables that make a server process use this S3 server. */
  env: Record<string, string>;
  /** Every request the server received, as `METHOD /path?query` (a multipart upload's parts show here). */
  requests: string[];
  /** The storage configuration of the same server, for `createTestApp({ storage })`. */
  storage: Extract<StorageConfig, { kind: 's3' }>;
  /** Stops the HTTP server; the objects stay on disk until `stop`, and `start` serves them again. */
  pause(): Promise<void>;
  /** Serves again on the same port (after `pause`). */
  start(): Promise<void>;
  /** Stops the server for good and removes its directory. */
  stop(): Promise<void>;
}

/**
 * A real S3-compatible server for tests: s3rver on 127.0.0.1 at a free port, storing objects in a fresh
 * temporary directory, checking SigV4 signatures with its default keys, with the bucket made. Silent.
 */
export async function startS3Server(): Promise<TestS3Server> {
  const dir = await mkdtemp(join(tmpdir(), 'emolens-s3-'));
  const bucket = `emolens-test-${randomBytes(4).toString('hex')}`;
  const accessKeyId = 'S3RVER';
  const secretAccessKey = 'S3RVER';
  const region = 'us-east-1';
  let port = 0;
  let instance: S3rverInstance | undefined;
  const requests: string[] = [];

  const start = async () => {
    if (instance) return;
    const s3rver = new S3rver({
      address: '127.0.0.1',
      port,
      directory: dir,
      silent: true,
      resetOnClose: false,
      vhostBuckets: false,
      configureBuckets: [{ name: bucket }],
    });
    s3rver.middleware.unshift(multipartOperations(s3rver));
    const address = await s3rver.run();
    s3rver.httpServer?.on('request', (request: IncomingMessage) => requests.push(`${request.method} ${request.url}`));
    port = address.port;
    instance = s3rver;
  };

  const pause = async () => {
    const current = instance;
    if (!current) return;
    instance = undefined;
    // Open keep-alive connections would keep answering: close them with the server.
    current.httpServer?.closeAllConnections();
    await current.close();
  };

  await start();
  const endpoint = `http://127.0.0.1:${port}`;
  return {
    endpoint,
    bucket,
    accessKeyId,
    secretAccessKey,
    region,
    dir,
    requests,
    env: {
      S3_ENDPOINT: endpoint,
      S3_BUCKET: bucket,
      S3_ACCESS_KEY_ID: accessKeyId,
      S3_SECRET_ACCESS_KEY: secretAccessKey,
      S3_REGION: region,
      S3_FORCE_PATH_STYLE: 'true',
    },
    storage: { kind: 's3', endpoint, bucket, region, accessKeyId, secretAccessKey, forcePathStyle: true },
    pause,
    start,
    stop: async () => {
      await pause();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** Every key stored in the server's bucket (under `prefix`), listed through the S3 API, sorted. */
export async function objectKeys(server: TestS3Server, prefix?: string): Promise<string[]> {
  const client = new S3Client({
    endpoint: server.endpoint,
    region: server.region,
    forcePathStyle: true,
    credentials: { accessKeyId: server.accessKeyId, secretAccessKey: server.secretAccessKey },
  });
  try {
    const keys: string[] = [];
    let token: string | undefined;
    do {
      const page = await client.send(
        new ListObjectsV2Command({ Bucket: server.bucket, Prefix: prefix, ContinuationToken: token }),
      );
      for (const object of page.Contents ?? []) if (object.Key) keys.push(object.Key);
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
    return keys.sort();
  } finally {
    client.destroy();
  }
}
