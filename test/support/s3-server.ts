import {
  ListObjectsV2Command,
  S3Client,
  type ListObjectsV2CommandOutput,
} from '@aws-sdk/client-s3';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPO_ROOT } from './server-process';

/**
 * The credentials the local server accepts, as the environment variables
 * the SDK's default chain reads: for withEnv or a child process's env.
 */
export const S3_SERVER_CREDENTIALS = {
  AWS_ACCESS_KEY_ID: 'S3RVER',
  AWS_SECRET_ACCESS_KEY: 'S3RVER',
} as const;

export const S3_SERVER_REGION = 'us-east-1';

const ENTRY = join(REPO_ROOT, 'test', 'support', 's3-server-main.ts');
const READY_TIMEOUT_MS = 15_000;
const STOP_TIMEOUT_MS = 5_000;

export interface S3Server {
  /** http://127.0.0.1:<port>; path-style addressing only. */
  endpoint: string;
  bucket: string;
  /** Where the server keeps its objects; removed by close(). */
  dir: string;
  /** Every key in the bucket, in S3's (sorted) listing order. */
  objectKeys(): Promise<string[]>;
  close(): Promise<void>;
}

/**
 * A real S3-protocol server (s3rver, objects kept as files) on a free port
 * of 127.0.0.1, with one empty bucket in a fresh temporary folder, and no
 * log output. It runs as a child process (s3-server-main.ts) because it
 * needs OpenSSL's legacy provider, which only a command-line flag enables.
 */
export async function startS3Server(): Promise<S3Server> {
  const dir = mkdtempSync(join(tmpdir(), 'workspace-s3-'));
  const bucket = 'workspace-assets';
  const child = spawn(
    process.execPath,
    [
      '--openssl-legacy-provider',
      '-r',
      'ts-node/register/transpile-only',
      ENTRY,
      dir,
      bucket,
    ],
    { cwd: REPO_ROOT, stdio: ['pipe', 'pipe', 'pipe'] },
  );
  const exited = once(child, 'close');
  let stderr = '';
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (chunk: string) => (stderr += chunk));

  let port: number;
  try {
    port = await readyPort(child.stdout, () => stderr);
  } catch (error) {
    child.kill('SIGKILL');
    await exited;
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }

  const endpoint = `http://127.0.0.1:${port}`;
  const client = new S3Client({
    endpoint,
    region: S3_SERVER_REGION,
    forcePathStyle: true,
    credentials: {
      accessKeyId: S3_SERVER_CREDENTIALS.AWS_ACCESS_KEY_ID,
      secretAccessKey: S3_SERVER_CREDENTIALS.AWS_SECRET_ACCESS_KEY,
    },
  });

  return {
    endpoint,
    bucket,
    dir,
    async objectKeys() {
      const keys: string[] = [];
      let token: string | undefined;
      do {
        const page: ListObjectsV2CommandOutput = await client.send(
          new ListObjectsV2Command({
            Bucket: bucket,
            ContinuationToken: token,
          }),
        );
        for (const object of page.Contents ?? []) {
          if (object.Key) keys.push(object.Key);
        }
        token = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (token);
      return keys;
    },
    async close() {
      client.destroy();
      const timer = setTimeout(() => child.kill('SIGKILL'), STOP_TIMEOUT_MS);
      child.kill('SIGTERM');
      await exited;
      clearTimeout(timer);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The port from the server's first line, {"port":N}. */
function readyPort(
  stdout: NodeJS.ReadableStream,
  stderr: () => string,
): Promise<number> {
  return new Promise((resolve, reject) => {
    let output = '';
    const timer = setTimeout(
      () => fail(`did not start in ${READY_TIMEOUT_MS} ms`),
      READY_TIMEOUT_MS,
    );
    const fail = (why: string) => {
      clearTimeout(timer);
      reject(new Error(`The S3 server ${why}. stderr:\n${stderr()}`));
    };
    stdout.setEncoding('utf8');
    stdout.on('data', (chunk: string) => {
      output += chunk;
      const line = output.split('\n', 2);
      if (line.length < 2) return;
      clearTimeout(timer);
      const { port } = JSON.parse(line[0]) as { port: number };
      resolve(port);
    });
    stdout.once('end', () => fail('exited before it was ready'));
  });
}
