import { Logger } from '@nestjs/common';
import type { JWK } from 'jose';
import { DevAuthProvider } from './dev-auth-provider';

/**
 * `npm run auth:dev [-- --user alice]`: a local OpenID Provider on
 * 127.0.0.1:AUTH_DEV_PORT (default 4020). With --user, prints an access
 * token for that user, to paste into Swagger UI's "Authorize" or curl.
 * With CORS_ORIGINS set (as for the service), pages on those origins may
 * fetch tokens from it too.
 */
async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const user = args[args.indexOf('--user') + 1];
  const port = Number(process.env.AUTH_DEV_PORT ?? 4020);
  const signingKey = process.env.AUTH_DEV_SIGNING_KEY
    ? (JSON.parse(process.env.AUTH_DEV_SIGNING_KEY) as JWK)
    : undefined;
  const provider = await DevAuthProvider.start({
    port,
    audience: process.env.AUTH_DEV_AUDIENCE ?? 'workspace-api',
    signingKey,
    corsOrigins: corsOriginsFrom(process.env.CORS_ORIGINS),
  });
  const logger = new Logger('DevAuthProvider');
  logger.log(`Issuer ${provider.issuer} (audience ${provider.audience})`);
  logger.log(
    `Start the service against it: AUTH_MODE=oidc AUTH_ISSUER=${provider.issuer} AUTH_AUDIENCE=${provider.audience} npm start`,
  );
  if (args.includes('--user') && user) {
    // Alone on its line, so it can be copied (or read by a script).
    process.stdout.write(
      `${await provider.token({ user, roles: rolesFrom(args) })}\n`,
    );
  }
  const stop = () => void provider.close().then(() => process.exit(0));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

/** The service's CORS_ORIGINS: a page allowed to call it may get a token. */
function corsOriginsFrom(value: string | undefined): string[] | '*' {
  const text = value?.trim() ?? '';
  if (text === '*') return '*';
  return text
    .split(',')
    .map((origin) => origin.trim())
    .filter((origin) => origin !== '');
}

function rolesFrom(args: string[]): string[] {
  const index = args.indexOf('--roles');
  return index === -1 ? [] : (args[index + 1] ?? '').split(',');
}

main().catch((error: unknown) => {
  console.error(
    `Start-up failed: ${error instanceof Error ? error.message : String(error)}`,
  );
  process.exit(1);
});
