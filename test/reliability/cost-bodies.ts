/**
 * The bodies of the cost driver (cost.e2e-spec.ts): for each body route,
 * the shapes that make a JSON body expensive to read, each filled to just
 * under BODY_LIMIT. Built as text, so the size is exact and the shapes
 * (duplicate keys, huge exponents) are the ones sent.
 */

export type CostRoute = 'create' | 'patch' | 'logo';

export interface CostBody {
  route: CostRoute;
  family: string;
  text: string;
  /** The documented statuses this body may get. */
  statuses: number[];
}

/** Repeats `unit(i)` (joined by commas) while the whole stays under `room` bytes. */
function fill(room: number, unit: (i: number) => string): string {
  const parts: string[] = [];
  let used = 0;
  for (let i = 0; ; i++) {
    const part = unit(i);
    const cost = part.length + (i === 0 ? 0 : 1);
    if (used + cost > room) break;
    parts.push(part);
    used += cost;
  }
  return parts.join(',');
}

/** `{"<field>":…,…, <junk>}` of at most `size` bytes: `junk(room)` fills the rest. */
function withJunk(
  fields: Record<string, unknown>,
  size: number,
  junk: (room: number) => string,
): string {
  const known = JSON.stringify(fields).slice(1, -1);
  const head = `{${known}${known === '' ? '' : ','}`;
  return `${head}${junk(size - head.length - 1)}}`;
}

const manyKeys = (room: number) => `{${fill(room - 2, (i) => `"k${i}":1`)}}`;

const VALID: Record<CostRoute, Record<string, unknown>> = {
  create: { name: 'Cost', userId: 'cost' },
  patch: { name: 'Cost' },
  logo: {
    projectId: 'p',
    companyName: 'Cost',
    style: 'modern',
    colors: ['red'],
  },
};

/** The route's text field that is stored or forwarded, to fill. */
const TEXT_FIELD: Record<CostRoute, string> = {
  create: 'description',
  patch: 'description',
  logo: 'description',
};

/** An array field of the route (logo: `mood`, which has no item limit). */
const ARRAY_FIELD: Record<CostRoute, string> = {
  create: 'name',
  patch: 'name',
  logo: 'mood',
};

/**
 * Every family, for every route. `size` is the body size to reach (just
 * under BODY_LIMIT); `depthLimit` the nesting depth the service accepts.
 */
export function costBodies(size: number, depthLimit: number): CostBody[] {
  const bodies: CostBody[] = [];
  for (const route of ['create', 'patch', 'logo'] as const) {
    const valid = VALID[route];
    // A body the route accepts, with the junk ignored (create, logo) or a
    // body it cannot apply (PATCH refuses unknown keys with its 500).
    const ignored =
      route === 'patch' ? [500] : route === 'create' ? [201] : [200];
    const invalid = route === 'patch' ? [500] : [400];
    // PATCH stores text of any length as given; create and logo refuse it.
    const longText = route === 'patch' ? [200] : invalid;
    const add = (family: string, text: string, statuses: number[]) =>
      bodies.push({ route, family, text, statuses });
    const junkField = (value: (room: number) => string) =>
      withJunk(valid, size, (room) => `"x":${value(room - 4)}`);

    add(
      'many keys at the top level',
      withJunk(valid, size, (room) => fill(room, (i) => `"k${i}":1`)),
      ignored,
    );
    add('an unknown field holding many keys', junkField(manyKeys), ignored);
    add(
      'a known field holding many keys',
      withJunk(
        { ...valid, [TEXT_FIELD[route]]: undefined },
        size,
        (room) =>
          `"${TEXT_FIELD[route]}":${manyKeys(room - TEXT_FIELD[route].length - 3)}`,
      ),
      invalid,
    );
    add(
      'many keys at every depth',
      junkField((room) => {
        const levels = depthLimit - 2;
        const per = Math.floor(room / levels) - 8;
        let text = '1';
        for (let level = 0; level < levels; level++) {
          text = `{${fill(per, (i) => `"k${i}":1`)},"d":${text}}`;
        }
        return text;
      }),
      ignored,
    );
    add(
      'many array items (unknown field)',
      junkField((room) => `[${fill(room - 2, () => '1')}]`),
      ignored,
    );
    add(
      `many array items (${ARRAY_FIELD[route]})`,
      withJunk(valid, size, (room) => {
        const name = ARRAY_FIELD[route];
        return `"${name}":[${fill(room - name.length - 5, () => '"a"')}]`;
      }),
      // The logo's mood has no item limit: a valid body, sent upstream.
      route === 'logo' ? [200] : invalid,
    );
    add(
      'a long string (unknown field)',
      junkField((room) => `"${'x'.repeat(room - 2)}"`),
      ignored,
    );
    add(
      `a long string (${TEXT_FIELD[route]})`,
      withJunk(valid, size, (room) => {
        const name = TEXT_FIELD[route];
        return `"${name}":"${'x'.repeat(room - name.length - 5)}"`;
      }),
      longText,
    );
    add(
      'a string of escape sequences',
      withJunk(valid, size, (room) => {
        const name = TEXT_FIELD[route];
        const count = Math.floor((room - name.length - 5) / 6);
        return `"${name}":"${'\\u00e9'.repeat(count)}"`;
      }),
      longText,
    );
    add(
      'numbers with huge exponents',
      junkField((room) => `[${fill(room - 2, () => '1e999999999')}]`),
      ignored,
    );
    add(
      'a number with a million digits',
      junkField((room) => `${'9'.repeat(room - 8)}e-99999`),
      ignored,
    );
    add(
      'nesting to the depth limit, many times',
      junkField((room) => {
        const depth = depthLimit - 2;
        const one = `${'['.repeat(depth)}1${']'.repeat(depth)}`;
        return `[${fill(room - 2, () => one)}]`;
      }),
      ignored,
    );
    add(
      'nesting far past the depth limit',
      junkField((room) => {
        const depth = Math.floor((room - 1) / 2);
        return `${'['.repeat(depth)}1${']'.repeat(depth)}`;
      }),
      // Refused as too deep on create and logo; PATCH refuses the key.
      invalid,
    );
    add(
      'duplicate keys',
      withJunk({}, size, (room) => {
        const [first] = Object.keys(valid);
        const rest = JSON.stringify(valid).slice(1, -1);
        const dup = `"${first}":${JSON.stringify(valid[first])}`;
        return `${fill(room - rest.length - 1, () => dup)},${rest}`;
      }),
      route === 'patch' ? [200] : ignored,
    );
    add(
      'lone surrogates (unknown field)',
      junkField((room) => `"${'\\ud800'.repeat(Math.floor((room - 2) / 6))}"`),
      ignored,
    );
  }
  return bodies;
}
