import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { exportJWK, generateKeyPair, type JWK } from 'jose';
import { findFreePort, REPO_ROOT } from './server-process';

const ENTRY = join(
  REPO_ROOT,
  'dist-dev',
  'dev-servers',
  'auth-provider',
  'main.js',
);
const READY_TIMEOUT_MS = 15_000;

/**
 * The built dev OpenID Provider (`npm run auth:dev`) as a child process:
 * oidc-provider is an ES module, which Node loads and Jest's module system
 * cannot. It signs with `signingKey`, so a test can also sign tokens of its
 * own with the provider's key (expired, wrong audience…). It can be stopped
 * and started again on the same port, as a provider outage.
 */
export class DevAuthProviderProcess {
  private child?: ChildProcess;
  output = '';

  private constructor(
    private readonly port: number,
    private readonly signingKey: JWK,
    private readonly env: Record<string, string>,
  ) {}

  /**
   * Starts a provider signing with a new RS256 key named `kid`; `env`:
   * more of its environment (CORS_ORIGINS, for a browser page).
   */
  static async startWithNewKey(
    kid: string,
    env: Record<string, string> = {},
  ): Promise<DevAuthProviderProcess> {
    const { privateKey } = await generateKeyPair('RS256', {
      extractable: true,
    });
    return DevAuthProviderProcess.start(
      { ...(await exportJWK(privateKey)), kid, alg: 'RS256', use: 'sig' },
      env,
    );
  }

  static async start(
    signingKey: JWK,
    env: Record<string, string> = {},
  ): Promise<DevAuthProviderProcess> {
    if (!existsSync(ENTRY)) {
      throw new Error(`${ENTRY} does not exist: run npm run build`);
    }
    const provider = new DevAuthProviderProcess(
      await findFreePort(),
      signingKey,
      env,
    );
    await provider.resume();
    return provider;
  }

  get issuer(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  /** Starts the process (again) on its port. */
  async resume(): Promise<void> {
    const child = spawn(
      process.execPath,
      ['--no-warnings=ExperimentalWarning', ENTRY],
      {
        cwd: REPO_ROOT,
        env: {
          ...process.env,
          ...this.env,
          AUTH_DEV_PORT: String(this.port),
          AUTH_DEV_SIGNING_KEY: JSON.stringify(this.signingKey),
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    this.child = child;
    child.stdout.setEncoding('utf8');
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk: string) => (this.output += chunk));
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        child.kill('SIGKILL');
        reject(
          new Error(`The dev OpenID Provider did not start:\n${this.output}`),
        );
      }, READY_TIMEOUT_MS);
      child.stdout.on('data', (chunk: string) => {
        this.output += chunk;
        if (this.output.includes('Issuer http://')) {
          clearTimeout(timer);
          resolve();
        }
      });
    });
  }

  /** An access token the provider issues for `user`. */
  async token(
    user: string,
    options: { roles?: string[]; expiresIn?: number } = {},
  ): Promise<string> {
    const response = await fetch(`${this.issuer}/_dev/token`, {
      method: 'POST',
      body: JSON.stringify({ user, ...options }),
    });
    const body = (await response.json()) as { access_token?: string };
    if (!body.access_token)
      throw new Error(`no token: ${JSON.stringify(body)}`);
    return body.access_token;
  }

  /** A new signing key at the provider; resolves to its kid. */
  async rotate(): Promise<string> {
    const response = await fetch(`${this.issuer}/_dev/rotate`, {
      method: 'POST',
    });
    return ((await response.json()) as { kid: string }).kid;
  }

  async stop(): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null) return;
    const exited = once(child, 'close');
    child.kill('SIGTERM');
    await exited;
  }
}
