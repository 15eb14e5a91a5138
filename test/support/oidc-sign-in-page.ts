import { build } from 'esbuild';
import { CrossOriginPage } from './cross-origin-page';
import { REPO_ROOT } from './server-process';

/** The dev OpenID Provider's public client for single-page apps. */
export { SPA_CLIENT_ID } from '../../dev-servers/auth-provider/dev-auth-provider';

/** Where the page's script finds oidc-client-ts (see BUNDLE_ENTRY). */
const BUNDLE_PATH = '/oidc-client-ts.js';

/**
 * oidc-client-ts as a page loads it from its bundler: the package's own
 * browser build, unchanged, on `globalThis.oidc`, with `manager()`: a
 * UserManager of the settings signIn kept in the page's sessionStorage.
 */
const BUNDLE_ENTRY = `import { UserManager, WebStorageStateStore } from 'oidc-client-ts';
const manager = () =>
  new UserManager({
    ...JSON.parse(sessionStorage.getItem('oidc-settings') ?? '{}'),
    userStore: new WebStorageStateStore({ store: sessionStorage }),
  });
globalThis.oidc = { UserManager, WebStorageStateStore, manager };`;

let bundle: Promise<string> | undefined;

/** The bundle, made once per test file (esbuild, about 100 ms). */
function oidcClientBundle(): Promise<string> {
  bundle ??= build({
    stdin: { contents: BUNDLE_ENTRY, resolveDir: REPO_ROOT, loader: 'js' },
    bundle: true,
    format: 'iife',
    platform: 'browser',
    target: 'es2022',
    write: false,
    logLevel: 'silent',
  }).then((result) => result.outputFiles[0].text);
  return bundle;
}

/** The UserManager settings a page signs in with (oidc-client-ts names). */
export interface SignInSettings {
  /** The provider's issuer URL. */
  authority: string;
  client_id: string;
  /** Default `openid profile email`. */
  scope?: string;
  /** Also read the UserInfo endpoint after signing in. */
  loadUserInfo?: boolean;
}

/** What oidc-client-ts holds for the signed-in user. */
export interface SignedInUser {
  access_token: string;
  id_token?: string;
  refresh_token?: string;
  scope?: string;
  expires_at?: number;
  profile: Record<string, unknown>;
}

/**
 * The little of a page's globals that the scripts below use: this project
 * compiles for Node, without the DOM's types.
 */
interface PageUserManager {
  signinRedirect(args?: object): Promise<void>;
  signinRedirectCallback(): Promise<SignedInUser>;
  signinSilent(): Promise<SignedInUser | null>;
  getUser(): Promise<SignedInUser | null>;
}
export interface PageGlobals {
  sessionStorage: {
    getItem(key: string): string | null;
    setItem(key: string, value: string): void;
  };
  location: { origin: string };
  oidc: {
    UserManager: new (settings: object) => PageUserManager;
    WebStorageStateStore: new (options: { store: unknown }) => object;
    manager(): PageUserManager;
  };
}

/**
 * A single-page app on another origin that signs in with oidc-client-ts's
 * UserManager, as a frontend does: authorization code with PKCE through
 * the provider's own sign-in page (filled in by playwright), back to the
 * page's /callback, then API calls with the access token and refreshes
 * with the refresh token. Its settings and user are kept in the page's
 * sessionStorage, so they survive the redirects.
 */
export class OidcSignInPage {
  private constructor(readonly browser: CrossOriginPage) {}

  static async open(): Promise<OidcSignInPage> {
    const script = await oidcClientBundle();
    return new OidcSignInPage(
      await CrossOriginPage.open({
        html: `<!doctype html><title>Frontend</title><script src="${BUNDLE_PATH}"></script><p>Frontend</p>`,
        files: {
          [BUNDLE_PATH]: {
            contentType: 'text/javascript; charset=utf-8',
            body: script,
          },
        },
      }),
    );
  }

  get origin(): string {
    return this.browser.origin;
  }

  /**
   * Signs `user` in: UserManager.signinRedirect() (with `nonce`, which
   * the ID token must echo), the provider's sign-in form, the redirect
   * back and signinRedirectCallback(). Resolves with the user
   * oidc-client-ts keeps.
   */
  async signIn(
    settings: SignInSettings,
    user: string,
    nonce?: string,
  ): Promise<SignedInUser> {
    const page = this.browser.page;
    const leaving = page.waitForURL((url) =>
      url.href.startsWith(`${settings.authority}/authorize`),
    );
    await page.evaluate(
      ({ settings, nonce }) => {
        const page = globalThis as unknown as PageGlobals;
        const full = {
          scope: 'openid profile email',
          ...settings,
          redirect_uri: `${page.location.origin}/callback`,
          response_type: 'code',
        };
        page.sessionStorage.setItem('oidc-settings', JSON.stringify(full));
        const manager = new page.oidc.UserManager({
          ...full,
          userStore: new page.oidc.WebStorageStateStore({
            store: page.sessionStorage,
          }),
        });
        // Navigates away: not awaited, the page it ran in goes.
        void manager.signinRedirect(nonce === undefined ? {} : { nonce });
      },
      { settings, nonce },
    );
    await leaving;
    const back = page.waitForURL((url) =>
      url.href.startsWith(`${this.origin}/callback`),
    );
    await page.fill('input[name="login_hint"]', user);
    await page.click('button');
    await back;
    await page.waitForFunction(() => 'oidc' in globalThis);
    const signedIn = await this.inPage('signinRedirectCallback');
    if (signedIn === null) {
      throw new Error('signinRedirectCallback answered no user');
    }
    return signedIn;
  }

  /**
   * UserManager.signinSilent(): with a refresh token, a POST to the
   * token endpoint (grant_type=refresh_token), no iframe.
   */
  async refresh(): Promise<SignedInUser> {
    const user = await this.inPage('signinSilent');
    if (user === null) throw new Error('signinSilent answered no user');
    return user;
  }

  /** A fetch the page makes (see CrossOriginPage.fetchJson). */
  fetchJson(
    url: string,
    init: { method?: string; headers?: Record<string, string>; body?: string },
  ): Promise<{ status: number; body: unknown }> {
    return this.browser.fetchJson(url, init);
  }

  close(): Promise<void> {
    return this.browser.close();
  }

  /**
   * Calls `method` of a UserManager made from the settings signIn kept;
   * answers the fields of the user it resolves with (a User's methods do
   * not cross into the test).
   */
  private async inPage(
    method: 'signinRedirectCallback' | 'signinSilent',
  ): Promise<SignedInUser | null> {
    const answer = await this.browser.page.evaluate(async (method) => {
      const page = globalThis as unknown as PageGlobals;
      const manager = page.oidc.manager();
      try {
        const user = await manager[method]();
        return user === null
          ? null
          : {
              access_token: user.access_token,
              id_token: user.id_token,
              refresh_token: user.refresh_token,
              scope: user.scope,
              expires_at: user.expires_at,
              profile: user.profile,
            };
      } catch (error) {
        return `${(error as Error).name}: ${(error as Error).message}`;
      }
    }, method);
    if (typeof answer === 'string') {
      throw new Error(
        `oidc-client-ts failed in the page: ${answer}\n${this.browser.problems.join('\n')}`,
      );
    }
    return answer;
  }
}
