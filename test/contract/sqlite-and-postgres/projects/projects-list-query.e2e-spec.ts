import request from 'supertest';
import {
  keepLogo,
  pathOf,
  type AssetBody,
} from '../../../support/asset-client';
import { DevImageApi } from '../../../support/fake-image-api';
import { createProject } from '../../../support/project-fixtures';
import { createTestApp, type TestApp } from '../../../support/test-app';

/**
 * The list-page parameters of GET /api/projects: `q`, `sort` and `order`,
 * `view=summary` (with each item's logo thumbnail) and `includeTotal`, on
 * SQLite and PostgreSQL alike: the same projects, in the same order, page
 * by page, wherever the service runs.
 */

const USER = 'lister';

/** The names (and descriptions) the suite lists, made in this order. */
const MADE: Array<{ name: string; description?: string }> = [
  { name: 'Alpha launch' },
  { name: 'alpha' },
  { name: 'beta', description: 'The LAUNCH plan' },
  { name: 'Émile' },
  { name: 'émile' },
  { name: '100% pure' },
  { name: 'under_score' },
  { name: 'Zeta' },
  { name: 'ZETA' },
  { name: 'Ça va', description: 'percent sign: none' },
];

interface Item {
  id: string;
  name: string;
  description: string | null;
  createdAt: string;
  updatedAt: string;
  [member: string]: unknown;
}

/**
 * Text that does not compress (PostgreSQL compresses a large index entry
 * before it measures it): letters from a fixed pseudo-random sequence.
 */
function noisyText(length: number): string {
  let seed = 12345;
  let text = '';
  for (let i = 0; i < length; i++) {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    text += String.fromCodePoint(0xc0 + ((seed >>> 16) % 0x180));
  }
  return text;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * How `sort=name` orders: the first 100 characters, ASCII letters
 * lower-cased, compared byte by byte.
 */
const nameKey = (name: string) =>
  Buffer.from(
    Array.from(name.replace(/[A-Z]/g, (c) => c.toLowerCase()))
      .slice(0, 100)
      .join(''),
  );

describe('GET /api/projects list-page parameters (q, sort, order, view, includeTotal)', () => {
  let api: DevImageApi;
  let t: TestApp;
  let made: Item[];

  beforeAll(async () => {
    api = await DevImageApi.start();
    t = await createTestApp({
      IMAGE_API_KEY: 'sk-test',
      IMAGE_API_URL: api.url,
    });
    made = [];
    for (const input of MADE) {
      made.push(
        (await createProject(t, { ...input, userId: USER })) as unknown as Item,
      );
      await sleep(2);
    }
    await createProject(t, { name: 'alpha of another user', userId: 'other' });
  });
  afterAll(async () => {
    await t?.close();
    await api?.close();
  });

  const get = (query: string) =>
    request(t.server).get(`/api/projects?${query}`);

  /** Every page of a query, walked with its cursors. */
  async function walk(query: string, limit = 2) {
    const seen: Item[] = [];
    let cursor: string | null = null;
    for (let pages = 0; pages < 50; pages++) {
      const { body } = await get(
        `${query}&limit=${limit}${cursor ? `&cursor=${cursor}` : ''}`,
      ).expect(200);
      seen.push(...(body.projects as Item[]));
      cursor = body.nextCursor as string | null;
      if (cursor === null) return seen;
    }
    throw new Error('the walk did not end');
  }

  const names = (items: Item[]) => items.map((item) => item.name);

  describe('q', () => {
    it.each([
      ['launch', ['Alpha launch', 'beta']],
      ['ALPHA', ['alpha', 'Alpha launch']],
      ['%', ['100% pure']],
      ['_', ['under_score']],
      ['mile', ['émile', 'Émile']],
      ['émile', ['émile']],
      ['Ça', ['Ça va']],
      ['ça', []],
      ['nothing matches this', []],
    ])(
      'q=%s matches name or description, ASCII letters in any case, other letters exactly, %% and _ as themselves',
      async (q, expected) => {
        const listed = await walk(`userId=${USER}&q=${encodeURIComponent(q)}`);
        expect(names(listed)).toEqual(
          made
            .filter((item) => expected.includes(item.name))
            .reverse()
            .map((item) => item.name),
        );
      },
    );

    it('an empty q filters nothing', async () => {
      expect(names(await walk(`userId=${USER}&q=`))).toEqual(
        names([...made].reverse()),
      );
    });

    it('q keeps to the userId filter', async () => {
      expect(names(await walk('q=alpha', 10))).toEqual([
        'alpha of another user',
        'alpha',
        'Alpha launch',
      ]);
    });
  });

  describe('sort and order', () => {
    const byName = (a: Item, b: Item) =>
      Buffer.compare(nameKey(a.name), nameKey(b.name)) ||
      (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
    const byTime = (field: 'createdAt' | 'updatedAt') => (a: Item, b: Item) =>
      a[field].localeCompare(b[field]) ||
      (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

    it.each([
      ['sort=name', byName, 1],
      ['sort=name&order=desc', byName, -1],
      ['sort=createdAt', byTime('createdAt'), -1],
      ['sort=createdAt&order=asc', byTime('createdAt'), 1],
      ['sort=updatedAt&order=asc', byTime('updatedAt'), 1],
      ['order=desc', byTime('updatedAt'), -1],
    ] as const)(
      '%s walks every project page by page in that order, the id breaking ties',
      async (query, compare, direction) => {
        const listed = await walk(`userId=${USER}&${query}`);
        const expected = [...made].sort((a, b) => direction * compare(a, b));
        expect(listed.map((item) => item.id)).toEqual(
          expected.map((item) => item.id),
        );
      },
    );

    it('names that fold alike (Zeta, ZETA) come by id, across pages of one', async () => {
      const listed = await walk(`userId=${USER}&sort=name&q=zeta`, 1);
      const zetas = made.filter((item) => /^zeta$/i.test(item.name));
      expect(listed.map((item) => item.id)).toEqual(
        zetas.map((item) => item.id).sort(),
      );
      const desc = await walk(`userId=${USER}&sort=name&order=desc&q=zeta`, 1);
      expect(desc.map((item) => item.id)).toEqual(
        zetas
          .map((item) => item.id)
          .sort()
          .reverse(),
      );
    });

    it('sort=name orders every user’s projects too', async () => {
      const listed = await walk('sort=name', 3);
      expect(listed).toHaveLength(MADE.length + 1);
      expect(names(listed).slice(0, 3)).toEqual([
        '100% pure',
        'alpha',
        'Alpha launch',
      ]);
    });

    it('names longer than an index entry holds (PATCH) are stored and ordered by their first 100 characters, then id', async () => {
      const owner = 'long-names';
      const patched: Item[] = [];
      for (const name of [
        `${'a'.repeat(150)}2`,
        `${'A'.repeat(150)}1`,
        `É${noisyText(3000)}`,
      ]) {
        const project = await createProject(t, {
          name: 'short',
          userId: owner,
        });
        const { body } = await request(t.server)
          .patch(`/api/projects/${project.id}`)
          .send({ name })
          .expect(200);
        patched.push(body.project as Item);
      }
      const [a2, a1, accented] = patched;
      const ties = [a2, a1].map((item) => item.id).sort();
      const listed = await walk(`userId=${owner}&sort=name`, 1);
      expect(listed.map((item) => item.id)).toEqual([...ties, accented.id]);
      expect(listed[2].name).toBe(accented.name);
    });

    it.each([
      ['a default cursor under sort=name', '', 'sort=name'],
      ['a name cursor without sort', 'sort=name', ''],
      ['a name cursor under order=desc', 'sort=name', 'sort=name&order=desc'],
      [
        'a createdAt cursor under sort=updatedAt',
        'sort=createdAt',
        'sort=updatedAt',
      ],
    ])('refuses %s with 400', async (_label, made, used) => {
      const first = await get(`userId=${USER}&limit=1&${made}`).expect(200);
      const { body } = await get(
        `userId=${USER}&limit=1&${used}&cursor=${first.body.nextCursor}`,
      ).expect(400);
      expect(body).toEqual({
        error: 'Invalid input',
        details: [
          {
            path: ['cursor'],
            message: expect.stringMatching(/^Cursor of another order/),
            code: 'custom',
          },
        ],
        code: 'invalid_input',
      });
    });
  });

  describe('invalid values', () => {
    it.each([
      ['sort=title', 'sort'],
      ['sort=name&sort=name', 'sort'],
      ['order=up', 'order'],
      ['view=tiny', 'view'],
      ['includeTotal=yes', 'includeTotal'],
      [`q=${'x'.repeat(101)}`, 'q'],
      ['q=a&q=b', 'q'],
      ['q=a%00b', 'q'],
    ])('%s is 400 with the validation body', async (query, path) => {
      const { body } = await get(`limit=2&${query}`).expect(400);
      expect(body).toEqual({
        error: 'Invalid input',
        details: expect.any(Array),
        code: 'invalid_input',
      });
      expect(body.details[0].path).toEqual([path]);
    });

    it.each([
      'q=a',
      'sort=name',
      'order=asc',
      'view=summary',
      'includeTotal=true',
    ])('%s without limit is 400: it shapes a page', async (query) => {
      const { body } = await get(query).expect(400);
      expect(body.details).toEqual([
        {
          path: ['limit'],
          message: `Required with ${query.split('=')[0]}`,
          code: 'invalid_type',
        },
      ]);
    });
  });

  describe('includeTotal', () => {
    it('gives total and X-Total-Count on every page, counting what the filters match', async () => {
      const first = await get(
        `userId=${USER}&q=a&limit=2&includeTotal=true`,
      ).expect(200);
      const matching = made.filter((item) =>
        `${item.name}\n${item.description ?? ''}`.toLowerCase().includes('a'),
      ).length;
      expect(Object.keys(first.body)).toEqual([
        'projects',
        'nextCursor',
        'total',
      ]);
      expect(first.body.total).toBe(matching);
      expect(first.headers['x-total-count']).toBe(String(matching));
      const second = await get(
        `userId=${USER}&q=a&limit=2&includeTotal=true&cursor=${first.body.nextCursor}`,
      ).expect(200);
      expect(second.body.total).toBe(matching);
    });

    it('keeps the default order’s cursor in its first form, [updatedAt, id]', async () => {
      const { body } = await get(`userId=${USER}&limit=1`).expect(200);
      const decoded = JSON.parse(
        Buffer.from(body.nextCursor as string, 'base64url').toString(),
      ) as unknown;
      expect(decoded).toEqual([
        body.projects[0].updatedAt,
        body.projects[0].id,
      ]);
    });

    it('leaves a page without includeTotal as it was: no total, no header', async () => {
      const page = await get(`userId=${USER}&limit=2`).expect(200);
      expect(Object.keys(page.body)).toEqual(['projects', 'nextCursor']);
      expect(page.headers['x-total-count']).toBeUndefined();
      const off = await get(`userId=${USER}&limit=2&includeTotal=false`).expect(
        200,
      );
      expect(off.text).toBe(page.text);
    });

    it('counts 0 when nothing matches', async () => {
      const { body, headers } = await get(
        'q=zzz-no-match&limit=5&includeTotal=true',
      ).expect(200);
      expect(body).toEqual({ projects: [], nextCursor: null, total: 0 });
      expect(headers['x-total-count']).toBe('0');
    });
  });

  describe('view=summary', () => {
    it('holds the project, its sections’ progress, _count and logoThumbnailUrl, without agents or tasks', async () => {
      const { body } = await get(`userId=${USER}&limit=1&view=summary`).expect(
        200,
      );
      const [item] = body.projects as Item[];
      expect(Object.keys(item)).toEqual([
        'id',
        'name',
        'description',
        'userId',
        'createdAt',
        'updatedAt',
        'sections',
        '_count',
        'logoThumbnailUrl',
      ]);
      expect(item.sections).toHaveLength(8);
      expect(Object.keys((item.sections as object[])[0])).toEqual([
        'id',
        'type',
        'status',
      ]);
      expect(item._count).toEqual({ tasks: 0, assets: 0 });
      expect(item.logoThumbnailUrl).toBeNull();
      const full = (await get(`userId=${USER}&limit=1`).expect(200)).body
        .projects[0] as Item;
      expect(item.id).toBe(full.id);
      expect(JSON.stringify(item).length).toBeLessThan(
        JSON.stringify(full).length / 2,
      );
    });

    it('view=full is the default item', async () => {
      const full = await get(`userId=${USER}&limit=3`).expect(200);
      expect(
        (await get(`userId=${USER}&limit=3&view=full`).expect(200)).text,
      ).toBe(full.text);
    });

    it('names the chosen logo’s 128-pixel rendition, absolute, and null once un-chosen', async () => {
      const project = await createProject(t, {
        name: 'With logo',
        userId: 'logo-owner',
      });
      const kept = await keepLogo(t, project.id).expect(201);
      const asset = kept.body.asset as AssetBody;
      const logoSection = project.sections.find((s) => s.type === 'LOGO')!;
      const selection = `/api/projects/${project.id}/sections/${logoSection.id}/selection`;
      const thumbnail = async () =>
        (await get('userId=logo-owner&limit=1&view=summary').expect(200)).body
          .projects[0].logoThumbnailUrl as string | null;

      // Kept but not chosen: no logo yet.
      expect(await thumbnail()).toBeNull();
      await request(t.server)
        .put(selection)
        .send({ assetId: asset.id })
        .expect(200);
      const url = await thumbnail();
      // Absolute, as the asset's own url (each request of supertest comes
      // through another port, so the paths are compared).
      expect(url).toMatch(/^https?:\/\//);
      expect(pathOf(url!)).toBe(`${pathOf(asset.url)}?size=128`);
      const image = await request(t.server)
        .get(pathOf(url!))
        .buffer(true)
        .parse((res, done) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('end', () => done(null, Buffer.concat(chunks)));
        })
        .expect(200);
      expect(image.headers['content-type']).toBe('image/png');
      const png = image.body as Buffer;
      expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([128, 128]);

      await request(t.server).delete(selection).expect(200);
      expect(await thumbnail()).toBeNull();
    });
  });
});
