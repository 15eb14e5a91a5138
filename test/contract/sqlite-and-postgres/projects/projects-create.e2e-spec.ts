import request from 'supertest';
import { SECTION_TYPES } from '../../../../src/projects/projects.constants';
import { countRows } from '../../../support/project-fixtures';
import { createTestApp, TestApp } from '../../../support/test-app';

describe('POST /api/projects', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterEach(() => t.reset());
  afterAll(() => t.close());

  const post = (body: unknown) =>
    request(t.server)
      .post('/api/projects')
      .send(body as object);

  it('returns 201 with {project} holding the given fields', async () => {
    const response = await post({
      name: 'Brand kit',
      description: 'For the spring launch',
      userId: 'user-1',
    }).expect(201);
    expect(response.body).toEqual({ project: expect.any(Object) });
    expect(response.body.project).toMatchObject({
      id: expect.any(String),
      name: 'Brand kit',
      description: 'For the spring launch',
      userId: 'user-1',
    });
  });

  it('names the new project in Location: an absolute URL on the request’s origin, /api/projects/{id} on it, where a GET finds it', async () => {
    const response = await post({ name: 'Located', userId: 'u' }).expect(201);
    const location = new URL(String(response.headers.location));
    expect(location.href).toBe(
      `http://${response.request.url.split('/')[2]}/api/projects/${response.body.project.id}`,
    );
    const found = await request(t.server).get(location.pathname).expect(200);
    expect(found.body.project.name).toBe('Located');
  });

  it('creates 8 sections LOGO..DEPLOYMENT in order, each PENDING', async () => {
    const { body } = await post({ name: 'P', userId: 'u' }).expect(201);
    expect(body.project.sections.map((s: { type: string }) => s.type)).toEqual([
      'LOGO',
      'ICONS',
      'GRAPHICS',
      'MARKETING',
      'WIREFRAME',
      'CODE',
      'TESTING',
      'DEPLOYMENT',
    ]);
    expect(body.project.sections).toHaveLength(SECTION_TYPES.length);
    for (const section of body.project.sections) {
      expect(section.status).toBe('PENDING');
      expect(section.projectId).toBe(body.project.id);
    }
  });

  it('creates a code master, a content writer and a designer, each IDLE', async () => {
    const { body } = await post({ name: 'P', userId: 'u' }).expect(201);
    expect(
      body.project.agents.map(
        ({ name, type, provider, status }: Record<string, string>) => ({
          name,
          type,
          provider,
          status,
        }),
      ),
    ).toEqual([
      {
        name: 'Code Master',
        type: 'CODE',
        provider: 'CODE_PROVIDER',
        status: 'IDLE',
      },
      {
        name: 'Content Writer',
        type: 'MARKETING',
        provider: 'TEXT_PROVIDER',
        status: 'IDLE',
      },
      {
        name: 'Designer',
        type: 'DESIGN',
        provider: 'IMAGE_PROVIDER',
        status: 'IDLE',
      },
    ]);
  });

  it('stores the project with its 8 sections and 3 agents', async () => {
    const { body } = await post({ name: 'P', userId: 'u' }).expect(201);
    expect(await countRows(t.dataSource, 'sections', body.project.id)).toBe(8);
    expect(await countRows(t.dataSource, 'agents', body.project.id)).toBe(3);
    await request(t.server).get(`/api/projects/${body.project.id}`).expect(200);
  });

  it('sets description to null when it is not given', async () => {
    const { body } = await post({ name: 'P', userId: 'u' }).expect(201);
    expect(body.project.description).toBeNull();
  });

  it('gives ids as UUID strings and timestamps as ISO-8601 UTC with milliseconds', async () => {
    const { body } = await post({ name: 'P', userId: 'u' }).expect(201);
    const uuid =
      /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
    const iso = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
    expect(body.project.id).toMatch(uuid);
    expect(body.project.sections[0].id).toMatch(uuid);
    expect(body.project.createdAt).toMatch(iso);
    expect(body.project.updatedAt).toMatch(iso);
  });

  it('accepts a name of 1 and of 100 characters', async () => {
    await post({ name: 'x', userId: 'u' }).expect(201);
    await post({ name: 'x'.repeat(100), userId: 'u' }).expect(201);
  });

  // Found by the reliability fuzz on PostgreSQL: a long userId could not be
  // indexed there (500) while SQLite stored it (201).
  it('accepts a userId of 255 characters, of any kind, on every database', async () => {
    await post({ name: 'P', userId: '😀'.repeat(255) }).expect(201);
  });

  it('returns 400 with a too_big issue for a userId of 256 characters', async () => {
    const { body } = await post({ name: 'P', userId: 'u'.repeat(256) }).expect(
      400,
    );
    expect(body.details).toEqual([
      {
        path: ['userId'],
        message: 'String must contain at most 255 character(s)',
        code: 'too_big',
      },
    ]);
  });

  it('accepts a description of 500 characters', async () => {
    await post({ name: 'P', description: 'd'.repeat(500), userId: 'u' }).expect(
      201,
    );
  });

  it('ignores unknown fields instead of rejecting them', async () => {
    const { body } = await post({
      name: 'P',
      userId: 'u',
      x_unknown_field: 'red',
      id: 'chosen-by-client',
    }).expect(201);
    expect(body.project.id).not.toBe('chosen-by-client');
    expect(body.project).not.toHaveProperty('x_unknown_field');
  });

  it('ignores 70,000 unknown fields (a 740 KB body) and creates the project', async () => {
    const body: Record<string, unknown> = { name: 'P', userId: 'u' };
    for (let i = 0; i < 70_000; i++) body[`k${i}`] = 1;
    const response = await post(body).expect(201);
    expect(response.body.project).toMatchObject({ name: 'P', userId: 'u' });
    expect(response.body.project).not.toHaveProperty('k0');
  });

  describe('refuses text that is not well-formed Unicode with 400 invalid_string and stores nothing', () => {
    const cases: Array<[string, Record<string, unknown>, string]> = [
      [
        'a name holding a lone surrogate',
        { name: '\ud800', userId: 'u' },
        'name',
      ],
      [
        'a description holding a lone low surrogate',
        { name: 'P', description: 'a\udc00', userId: 'u' },
        'description',
      ],
      [
        'a userId ending in a high surrogate',
        { name: 'P', userId: 'u\ud83d' },
        'userId',
      ],
    ];

    it.each(cases)('%s', async (_label, body, field) => {
      const response = await post(body).expect(400);
      expect(response.body).toEqual({
        error: 'Invalid input',
        details: [
          {
            path: [field],
            message: 'String must be well-formed Unicode (no lone surrogates)',
            code: 'invalid_string',
          },
        ],
        code: 'invalid_input',
      });
      const [{ count }] = await t.dataSource.query(
        'SELECT COUNT(*) AS count FROM projects',
      );
      expect(Number(count)).toBe(0);
    });

    it('accepts surrogate pairs (characters outside the BMP) and reads them back as sent', async () => {
      const name = 'Launch 🚀 𝔘';
      const { body } = await post({ name, userId: 'u' }).expect(201);
      expect(body.project.name).toBe(name);
      const read = await request(t.server)
        .get(`/api/projects/${body.project.id}`)
        .expect(200);
      expect(read.body.project.name).toBe(name);
    });
  });

  describe('invalid input gives 400 {error:"Invalid input", details} and stores nothing', () => {
    const cases: Array<[string, unknown, (string | number)[]]> = [
      ['name missing', { userId: 'u' }, ['name']],
      ['name empty', { name: '', userId: 'u' }, ['name']],
      [
        'name of 101 characters',
        { name: 'x'.repeat(101), userId: 'u' },
        ['name'],
      ],
      ['name not a string', { name: 42, userId: 'u' }, ['name']],
      [
        'description of 501 characters',
        { name: 'P', description: 'd'.repeat(501), userId: 'u' },
        ['description'],
      ],
      [
        'description null',
        { name: 'P', description: null, userId: 'u' },
        ['description'],
      ],
      ['userId missing', { name: 'P' }, ['userId']],
      ['userId not a string', { name: 'P', userId: 7 }, ['userId']],
      ['a JSON array body', [{ name: 'P', userId: 'u' }], []],
      ['a JSON number body', 5, []],
      ['a JSON null body', null, []],
    ];

    it.each(cases)('%s', async (_label, body, path) => {
      const response = await request(t.server)
        .post('/api/projects')
        .set('Content-Type', 'application/json')
        .send(JSON.stringify(body))
        .expect(400);
      expect(response.body).toEqual({
        error: 'Invalid input',
        details: expect.any(Array),
        code: 'invalid_input',
      });
      expect(response.body.details).toContainEqual({
        path,
        message: expect.any(String),
        code: expect.any(String),
      });
      const [{ count }] = await t.dataSource.query(
        'SELECT COUNT(*) AS count FROM projects',
      );
      expect(Number(count)).toBe(0);
    });
  });

  it('reports one issue per failed rule, in the {path, message, code} shape', async () => {
    const { body } = await post({ name: 'x'.repeat(101) }).expect(400);
    expect(body.details).toEqual([
      {
        path: ['name'],
        message: 'String must contain at most 100 character(s)',
        code: 'too_big',
      },
      { path: ['userId'], message: 'Required', code: 'invalid_type' },
    ]);
  });
});
