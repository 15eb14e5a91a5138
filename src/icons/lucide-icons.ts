import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { ICON_NAME, ICON_NAME_MAX } from './dto/icon-set-input.dto';

const PACKAGE_JSON = require.resolve('lucide-static/package.json');

/** Where the package's icons are: one SVG file a name. */
const ICONS_DIR = join(dirname(PACKAGE_JSON), 'icons');

/** The installed version, as the assets name their source. */
const VERSION = (
  JSON.parse(readFileSync(PACKAGE_JSON, 'utf8')) as { version: string }
).version;

/** What a Lucide icon's asset names as its model: the set and its licence. */
export const LUCIDE_MODEL = `lucide-static ${VERSION} (ISC)`;

/** A Lucide icon is under a kilobyte; anything larger is not read. */
const MAX_ICON_BYTES = 16 * 1024;

/** Icons kept in memory: the 2,000-odd files are read only when asked for. */
const CACHE_MAX = 256;

const cache = new Map<string, string | null>();

/**
 * The Lucide icon of `name` as its file holds it, or undefined when the set
 * has no such icon. Files are read lazily, one name at a time, and the
 * last CACHE_MAX answers (misses too) are kept; the name is checked to be
 * a kebab name first, so it never walks out of the icons folder.
 */
export async function lucideIcon(name: string): Promise<string | undefined> {
  if (name.length > ICON_NAME_MAX || !ICON_NAME.test(name)) return undefined;
  if (cache.has(name)) {
    const hit = cache.get(name) ?? undefined;
    // Refreshed: the most recently asked names stay.
    cache.delete(name);
    cache.set(name, hit ?? null);
    return hit;
  }
  const text = await readIcon(name);
  cache.set(name, text ?? null);
  if (cache.size > CACHE_MAX) {
    cache.delete(cache.keys().next().value as string);
  }
  return text;
}

async function readIcon(name: string): Promise<string | undefined> {
  try {
    const bytes = await readFile(join(ICONS_DIR, `${name}.svg`));
    return bytes.length <= MAX_ICON_BYTES ? bytes.toString('utf8') : undefined;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}
