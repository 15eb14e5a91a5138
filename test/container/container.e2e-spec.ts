import { execFile, execFileSync } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  renameSync,
  rmSync,
  statSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import request from 'supertest';
import { REPO_ROOT, findFreePort } from '../support/server-process';

/**
 * The Dockerfile's steps without Docker (our machines have no engine): in a
 * clean copy of the repository, the build stage, the production-dependency
 * stage and the runtime stage, then the image's start command — and the
 * service must answer ready. Only npm packages are downloaded
 * (better-sqlite3 ships prebuilt binaries; nothing is compiled).
 */

const run = promisify(execFile);
const STEP_TIMEOUT_MS = 8 * 60_000;

/** The RUN lines of the Dockerfile this test performs, in order. */
const BUILD_STAGE = ['npm ci --ignore-scripts', 'npm run build:service'];
const DEPENDENCY_STAGE = ['npm ci --omit=dev --omit=optional --ignore-scripts'];
/**
 * What the runtime stage takes from the build stage's full install: the
 * scopes of native packages that are optional dependencies (sharp's and
 * resvg's platform builds), which --omit=optional leaves out.
 */
const PLATFORM_SCOPES = ['@img', '@resvg'];
/**
 * The Dockerfile's instructions, a continued line (ending in `\`) joined
 * to the next, each with the stage it belongs to.
 */
function dockerfileInstructions(): { stage: string; line: string }[] {
  const joined = readFileSync(join(REPO_ROOT, 'Dockerfile'), 'utf8')
    .replace(/\\\n/g, ' ')
    .split('\n')
    .filter((line) => line.trim() !== '' && !line.startsWith('#'));
  let stage = '';
  return joined.map((line) => {
    const from = /^FROM \S+ AS (\S+)/.exec(line);
    if (from) stage = from[1];
    return { stage, line: line.replace(/\s+/g, ' ').trim() };
  });
}

/** The production-dependency stage's shell lines other than npm's, in order. */
const dependencyStageShell = () =>
  dockerfileInstructions()
    .filter(
      ({ stage, line }) =>
        stage === 'production-dependencies' &&
        line.startsWith('RUN ') &&
        !line.startsWith('RUN npm '),
    )
    .map(({ line }) => line.slice('RUN '.length));

/** What the runtime stage must delete from the base image: its package managers. */
const PACKAGE_MANAGERS = [
  '/usr/local/lib/node_modules/npm',
  '/usr/local/lib/node_modules/corepack',
  '/usr/local/bin/npm',
  '/usr/local/bin/npx',
  '/usr/local/bin/corepack',
  '/usr/local/bin/yarn',
  '/usr/local/bin/yarnpkg',
  '/opt/yarn-*',
];

/** Flags that change how fast npm works, not what it installs. */
const QUIET = ['--prefer-offline', '--no-audit', '--no-fund'];

async function sh(command: string, cwd: string): Promise<void> {
  for (const part of command.split(' && ')) {
    const [tool, ...args] = part.split(' ');
    const extra = tool === 'npm' && args[0] === 'ci' ? QUIET : [];
    await run(tool, [...args, ...extra], {
      cwd,
      timeout: STEP_TIMEOUT_MS,
      maxBuffer: 64 * 1024 * 1024,
      env: { ...process.env, NODE_ENV: '', CI: 'true' },
    });
  }
}

/** The repository's tracked files, as `COPY . .` would see them. */
function copyRepository(target: string): void {
  const files = execFileSync('git', ['ls-files', '-z'], {
    cwd: REPO_ROOT,
    encoding: 'utf8',
  })
    .split('\0')
    .filter((file) => file !== '' && existsSync(join(REPO_ROOT, file)));
  for (const file of files) {
    mkdirSync(dirname(join(target, file)), { recursive: true });
    cpSync(join(REPO_ROOT, file), join(target, file));
  }
}

/** Lockfile entries flagged as development-only that `root` holds. */
function devOnlyPackagesIn(root: string): string[] {
  const lock = JSON.parse(
    readFileSync(join(REPO_ROOT, 'package-lock.json'), 'utf8'),
  ) as { packages: Record<string, { dev?: boolean; devOptional?: boolean }> };
  return Object.entries(lock.packages)
    .filter(([path, entry]) => path !== '' && (entry.dev || entry.devOptional))
    .map(([path]) => path)
    .filter((path) => existsSync(join(root, path)));
}

describe('Dockerfile steps in a clean copy of the repository', () => {
  let root: string;

  beforeAll(() => {
    root = mkdtempSync(join(tmpdir(), 'container-'));
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('performs the RUN lines this test performs (keep both in step)', () => {
    const runLines = readFileSync(join(REPO_ROOT, 'Dockerfile'), 'utf8')
      .split('\n')
      .filter((line) => line.startsWith('RUN npm'))
      .map((line) => line.slice('RUN '.length));
    expect(runLines).toEqual([...BUILD_STAGE, ...DEPENDENCY_STAGE]);
  });

  it('removes npm, npx, corepack and yarn in the runtime stage', () => {
    const removed = dockerfileInstructions()
      .filter(
        ({ stage, line }) => stage === 'runtime' && /^RUN rm -rf /.test(line),
      )
      .flatMap(({ line }) => line.slice('RUN rm -rf '.length).split(' '));
    expect(removed).toEqual(expect.arrayContaining(PACKAGE_MANAGERS));
  });

  it('prunes better-sqlite3 to one platform after installing (a shell line this test runs)', () => {
    const lines = dependencyStageShell();
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('node_modules/better-sqlite3');
  });

  it("takes sharp's and resvg's platform packages from the build stage (keep both in step)", () => {
    const copyLines = readFileSync(join(REPO_ROOT, 'Dockerfile'), 'utf8')
      .split('\n')
      .filter((line) => line.startsWith('COPY --from=build'));
    for (const scope of PLATFORM_SCOPES) {
      expect(copyLines).toContain(
        `COPY --from=build --chown=root:root /app/node_modules/${scope} ./node_modules/${scope}`,
      );
    }
  });

  it(
    'builds, installs production dependencies only, starts with the image command and answers ready',
    async () => {
      const build = join(root, 'build');
      copyRepository(build);
      const dependencies = join(root, 'dependencies');
      mkdirSync(dependencies);
      for (const file of ['package.json', 'package-lock.json']) {
        cpSync(join(REPO_ROOT, file), join(dependencies, file));
      }
      // The two stages share nothing until the runtime stage, and BuildKit
      // runs them at the same time: so does this test.
      const runStage = async (steps: string[], cwd: string) => {
        for (const step of steps) await sh(step, cwd);
      };
      // The dependency stage's shell lines run as written, after npm, as
      // the image's /bin/sh would run them.
      const runShell = async (lines: string[], cwd: string) => {
        for (const line of lines) {
          await run('sh', ['-c', line], { cwd, timeout: STEP_TIMEOUT_MS });
        }
      };
      await Promise.all([
        runStage(BUILD_STAGE, build),
        runStage(DEPENDENCY_STAGE, dependencies).then(() =>
          runShell(dependencyStageShell(), dependencies),
        ),
      ]);

      const app = join(root, 'app');
      mkdirSync(app);
      renameSync(join(dependencies, 'node_modules'), join(app, 'node_modules'));
      renameSync(join(build, 'dist'), join(app, 'dist'));
      for (const scope of PLATFORM_SCOPES) {
        cpSync(
          join(build, 'node_modules', scope),
          join(app, 'node_modules', scope),
          { recursive: true },
        );
      }
      cpSync(join(REPO_ROOT, 'package.json'), join(app, 'package.json'));

      // Production dependencies only: no package the lockfile marks as
      // needed by development alone. TypeScript and ts-node count: TypeORM
      // names ts-node as an optional peer, so npm marks them "devOptional"
      // and `--omit=dev` alone would still install them.
      expect(devOnlyPackagesIn(app)).toEqual([]);
      for (const devOnly of ['typescript', 'ts-node', 'jest', '@nestjs/cli']) {
        expect(existsSync(join(app, 'node_modules', devOnly))).toBe(false);
      }

      // better-sqlite3 keeps this platform's native module only (Linux,
      // glibc, this architecture) and none of SQLite's C sources.
      const sqlite = join(app, 'node_modules', 'better-sqlite3');
      expect(readdirSync(join(sqlite, 'prebuilds'))).toEqual([
        `linux-${process.arch}.node`,
      ]);
      for (const source of ['deps', 'src', 'binding.gyp']) {
        expect(existsSync(join(sqlite, source))).toBe(false);
      }

      // sharp loads its native module for this platform, and the image
      // holds no other platform's build.
      const sharpPlatform = `${process.platform}-${process.arch}`;
      const imgPackages = readdirSync(join(app, 'node_modules', '@img'));
      expect(
        imgPackages.filter((name) => name.startsWith('sharp-')).sort(),
      ).toEqual(
        [`sharp-libvips-${sharpPlatform}`, `sharp-${sharpPlatform}`].sort(),
      );
      const versions = execFileSync(
        process.execPath,
        ['-e', "process.stdout.write(require('sharp').versions.vips)"],
        { cwd: app, encoding: 'utf8' },
      );
      expect(versions).toMatch(/^\d+\.\d+/);

      // resvg (icons, graphics, previews) loads its native module too, and
      // draws with the fonts and icons production dependencies ship.
      const drawn = execFileSync(
        process.execPath,
        [
          '-e',
          "const { Resvg } = require('@resvg/resvg-js'); const font = require.resolve('dejavu-fonts-ttf/ttf/DejaVuSans.ttf'); const icon = require('fs').readFileSync(require.resolve('lucide-static/icons/search.svg'), 'utf8'); const png = new Resvg(icon, { font: { fontFiles: [font], loadSystemFonts: false } }).render(); process.stdout.write(String(png.width))",
        ],
        { cwd: app, encoding: 'utf8' },
      );
      expect(drawn).toBe('24');

      const cmd = readFileSync(join(REPO_ROOT, 'Dockerfile'), 'utf8')
        .split('\n')
        .find((line) => line.startsWith('CMD '));
      expect(cmd).toBe('CMD ["node", "dist/service/main.js"]');

      // The build ships V8's compiled code beside the bundle.
      expect(
        statSync(join(app, 'dist', 'service', 'app.v8cache')).size,
      ).toBeGreaterThan(1024 * 1024);

      const port = await findFreePort();
      const machineCache = join(root, 'compile-cache');
      const child = execFile(process.execPath, ['dist/service/main.js'], {
        cwd: app,
        // The image's environment, except the address (tests listen on
        // loopback only), the ports (free ones: a server the developer
        // runs may hold the defaults) and the cache folder (the pod's /tmp).
        env: {
          PATH: process.env.PATH,
          NODE_ENV: 'production',
          HOST: '127.0.0.1',
          PORT: String(port),
          SITES_PORT: '0',
          LOG_LEVEL: 'warn',
          NODE_COMPILE_CACHE: machineCache,
        },
      });
      try {
        const base = `http://127.0.0.1:${port}`;
        let ready = 0;
        for (let i = 0; i < 100 && ready !== 200; i++) {
          await new Promise((resolve) => setTimeout(resolve, 100));
          ready = await request(base)
            .get('/health/ready')
            .then((res) => res.status)
            .catch(() => 0);
        }
        expect(ready).toBe(200);
        // V8 took the shipped cache: the start saved no cache of its own.
        const saved = existsSync(machineCache)
          ? readdirSync(machineCache).filter((name) =>
              name.endsWith('.v8cache'),
            )
          : [];
        expect(saved).toEqual([]);
        // better-sqlite3 was built for this runtime: a write works.
        await request(base)
          .post('/api/projects')
          .send({ name: 'From the image', userId: 'ops' })
          .expect(201);
      } finally {
        child.kill('SIGTERM');
      }
    },
    20 * 60_000,
  );
});
