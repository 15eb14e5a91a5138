import { build, type Plugin } from 'esbuild';
import { createRequire } from 'node:module';
import { readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { primeCodeCache } from './prime-code-cache';
import { type RawSourceMap, trimSourceMap } from './source-map-trim';

/**
 * Bundles the compiled service (dist/src, the output of `nest build`, which
 * keeps the decorator metadata and the Swagger plugin's additions that
 * esbuild alone would not produce) into dist/service: the launcher
 * (main.js), the service (app.js), the logo decoder's worker thread, the
 * graphics renderer's, the site checker's and the published page's head
 * rewriter's.
 * Starting from about 2,500 files read one by one to three.
 */

const ROOT = resolve(__dirname, '..');
const COMPILED = join(ROOT, 'dist', 'src');
export const BUNDLE_DIR = join(ROOT, 'dist', 'service');

/**
 * Packages left to Node's require, each for a reason:
 * - native addons, found by path at run time (better-sqlite3, sharp,
 *   resvg);
 * - packages whose files are read from their own folder (Lucide's icons,
 *   the DejaVu fonts, found through their package.json);
 * - modules OpenTelemetry patches as they are required (pg, pg-pool,
 *   ioredis): inside the bundle the patch would never see them;
 * - pino's transports run in a worker thread that loads them by name;
 * - swagger-ui-dist serves files from its own folder;
 * - the site checker's libraries (jsdom, axe-core, html-validate), loaded
 *   only by its worker thread: jsdom resolves files of its own at run
 *   time, axe-core is evaluated from its own source text, html-validate
 *   reads its presets and element tables from its folder.
 */
const KEPT_EXTERNAL = [
  'better-sqlite3',
  'sharp',
  '@resvg/resvg-js',
  'lucide-static',
  'dejavu-fonts-ttf',
  'pg',
  'pg-pool',
  'ioredis',
  'pino',
  'pino-pretty',
  'thread-stream',
  'swagger-ui-dist',
  'jsdom',
  'axe-core',
  'html-validate',
];

/**
 * Optional packages that libraries try to load and that this service does
 * not install (TypeORM's other drivers, Nest's microservices, pg-native):
 * left as a require that fails at run time exactly as it does unbundled.
 */
const notInstalled: Plugin = {
  name: 'not-installed-stays-external',
  setup(esbuild) {
    esbuild.onResolve({ filter: /^[^./]/ }, (args) => {
      if (args.path.startsWith('node:')) return undefined;
      const from = createRequire(join(args.resolveDir, 'noop.js'));
      try {
        from.resolve(args.path);
        return undefined;
      } catch {
        return { path: args.path, external: true };
      }
    });
  },
};

/**
 * Nest's ESM packages load some peers through
 * `const require = createRequire(import.meta.url)`, which esbuild cannot
 * follow: mapped-types would then load a second class-validator from
 * node_modules, whose decorators the bundled ValidationPipe never sees.
 * Without that line their `require('…')` calls are ordinary ones, and
 * esbuild bundles what they name.
 */
const LOCAL_REQUIRE = 'const require = createRequire(import.meta.url);';
const nestRequiresBundled: Plugin = {
  name: 'nest-requires-bundled',
  setup(esbuild) {
    esbuild.onLoad(
      { filter: /[\\/]node_modules[\\/]@nestjs[\\/].*\.js$/ },
      (args) => {
        const source = readFileSync(args.path, 'utf8');
        if (!source.includes(LOCAL_REQUIRE)) return undefined;
        return { contents: source.replace(LOCAL_REQUIRE, ''), loader: 'js' };
      },
    );
  },
};

/**
 * `import.meta` in the ESM packages, as CommonJS has it: the bundle's own
 * file (package lookups then start from dist/service).
 */
const IMPORT_META_BANNER =
  'var __importMeta={url:require("node:url").pathToFileURL(__filename).href,' +
  'filename:__filename,dirname:__dirname,' +
  'resolve:(s)=>require("node:url").pathToFileURL(require.resolve(s)).href};';

/** The launcher's `require('../main')` loads the bundled service. */
const launcherLoadsBundle: Plugin = {
  name: 'launcher-loads-bundle',
  setup(esbuild) {
    esbuild.onResolve({ filter: /^\.\.\/main$/ }, (args) =>
      dirname(args.importer) === join(COMPILED, 'start')
        ? { path: './app.js', external: true }
        : undefined,
    );
  },
};

export async function bundleService(): Promise<void> {
  rmSync(BUNDLE_DIR, { recursive: true, force: true });
  await build({
    entryPoints: {
      main: join(COMPILED, 'start', 'launch.js'),
      app: join(COMPILED, 'main.js'),
      'base64-answer.worker': join(COMPILED, 'logo', 'base64-answer.worker.js'),
      'graphic-render.worker': join(
        COMPILED,
        'graphics',
        'graphic-render.worker.js',
      ),
      'site-check.worker': join(COMPILED, 'site-check', 'site-check.worker.js'),
      'page-head.worker': join(COMPILED, 'sites', 'page-head.worker.js'),
    },
    outdir: BUNDLE_DIR,
    bundle: true,
    platform: 'node',
    target: 'node24',
    format: 'cjs',
    // Whitespace and syntax only: class and function names stay, since
    // TypeORM names migrations and Nest names providers and loggers after
    // them.
    minifyWhitespace: true,
    minifySyntax: true,
    keepNames: true,
    // Chained through tsc's own maps to the TypeScript sources.
    sourcemap: 'linked',
    sourcesContent: false,
    external: KEPT_EXTERNAL,
    plugins: [launcherLoadsBundle, nestRequiresBundled, notInstalled],
    define: { 'import.meta': '__importMeta' },
    banner: { js: IMPORT_META_BANNER },
    // The Swagger plugin's metadata repeats `enum` (its own value, then ours).
    logOverride: { 'duplicate-object-key': 'silent' },
    logLevel: 'warning',
    legalComments: 'none',
  });
  // Stack traces map the project's own frames to TypeScript; the
  // libraries' mappings would cost 125 MB of heap on the first trace.
  const mapFile = join(BUNDLE_DIR, 'app.js.map');
  const map = JSON.parse(readFileSync(mapFile, 'utf8')) as RawSourceMap;
  writeFileSync(
    mapFile,
    JSON.stringify(
      trimSourceMap(map, (source) => !source.includes('node_modules/')),
    ),
  );
  const size = statSync(join(BUNDLE_DIR, 'app.js')).size;
  console.log(`dist/service/app.js: ${(size / 2 ** 20).toFixed(1)} MiB`);
}

if (require.main === module) {
  bundleService()
    .then(() => primeCodeCache(BUNDLE_DIR))
    .catch((error: unknown) => {
      console.error(error);
      process.exit(1);
    });
}
