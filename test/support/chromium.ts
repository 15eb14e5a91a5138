import { existsSync } from 'node:fs';
import packagedChromium from '@sparticuz/chromium';

/** Where Debian's `chromium` package installs the browser. */
export const DEBIAN_CHROMIUM = '/usr/bin/chromium';

export interface ChromiumChoice {
  executablePath: string;
  /** Said in a failure message, so a launch error names the browser tried. */
  source: string;
}

export interface ChromiumSources {
  env: Record<string, string | undefined>;
  exists: (path: string) => boolean;
  /** The binary inside the @sparticuz/chromium package, unpacked to tmp. */
  packaged: () => Promise<string>;
}

/**
 * The browser for the Swagger UI test, first found of: CHROMIUM_PATH (a
 * developer's own), Debian's /usr/bin/chromium, and the Chromium that ships
 * inside the @sparticuz/chromium devDependency — so `npm ci && npm test`
 * needs no browser installed by hand, and nothing is ever downloaded: the
 * package holds the binary itself (brotli-compressed, unpacked on first use).
 */
export async function findChromium(
  sources: ChromiumSources = defaultSources,
): Promise<ChromiumChoice> {
  const configured = sources.env.CHROMIUM_PATH?.trim();
  if (configured) {
    // A path the developer chose and mistyped must not fall back silently.
    if (!sources.exists(configured)) {
      throw new Error(`CHROMIUM_PATH=${configured} does not exist`);
    }
    return { executablePath: configured, source: 'CHROMIUM_PATH' };
  }
  if (sources.exists(DEBIAN_CHROMIUM)) {
    return { executablePath: DEBIAN_CHROMIUM, source: DEBIAN_CHROMIUM };
  }
  return {
    executablePath: await sources.packaged(),
    source: 'the @sparticuz/chromium package',
  };
}

const defaultSources: ChromiumSources = {
  env: process.env,
  exists: existsSync,
  // Unpacks the binary into the temporary folder once (about a second).
  packaged: () => packagedChromium.executablePath(),
};

/**
 * Flags for headless Chromium in a test. `--no-sandbox`: Chromium refuses
 * to start its sandbox as root, which CI and containers are.
 */
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
];
