import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import type { IncomingMessage, Server } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import type { StorageConfig } from '../config.ts';

/** The part of s3rver (3.7.1, untyped CommonJS) the tests use. */
interface S3rverInstance {
  run(): Promise<AddressInfo>;
  close(): Promise<void>;
  httpServer?: Server;
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
