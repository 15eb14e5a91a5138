import S3rver from 's3rver';

/**
 * The local S3 server (s3rver) as a process of its own:
 *
 *   node --openssl-legacy-provider -r ts-node/register/transpile-only \
 *     test/support/s3-server-main.ts <directory> <bucket>
 *
 * It keeps its objects as files in <directory>, creates <bucket>, listens on
 * a free port of 127.0.0.1, prints {"port":N} as its first line and runs
 * until SIGTERM, SIGINT or the end of its standard input (its parent gone).
 *
 * --openssl-legacy-provider: s3rver encrypts the continuation token of
 * every truncated ListObjectsV2 page with DES, which OpenSSL 3 only offers
 * through its legacy provider; without it those listings fail with 500.
 */
async function main(): Promise<void> {
  const [directory, bucket] = process.argv.slice(2);
  if (!directory || !bucket) {
    throw new Error('usage: s3-server-main.ts <directory> <bucket>');
  }
  const server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory,
    configureBuckets: [{ name: bucket, configs: [] }],
  });
  const { port } = await server.run();
  process.stdout.write(`${JSON.stringify({ port })}\n`);

  let closing = false;
  const close = () => {
    if (closing) return;
    closing = true;
    server.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once('SIGTERM', close);
  process.once('SIGINT', close);
  process.stdin.on('end', close).resume();
}

main().catch((error: unknown) => {
  process.stderr.write(
    `${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  process.exit(1);
});
