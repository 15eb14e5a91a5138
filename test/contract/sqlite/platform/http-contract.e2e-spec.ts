import request from 'supertest';
import { parseRawAnswer, sendRaw } from '../../../support/http-client';
import { answerBeforeBody, listen } from '../../../support/pending-request';
import { createProject } from '../../../support/project-fixtures';
import { createTestApp, TestApp } from '../../../support/test-app';

const validProject = JSON.stringify({ name: 'P', userId: 'u' });
const validLogo = JSON.stringify({
  projectId: 'p',
  companyName: 'Acme',
  style: 'modern',
  colors: ['red'],
});

/** Rules every route shares: body reading, unknown routes, JSON bodies. */
describe('HTTP contract shared by all routes', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({ BODY_LIMIT: '300kb' });
  });
  afterEach(() => t.reset());
  afterAll(() => t.close());

  describe('an unreadable body gives the route its 500 body', () => {
    it.each([
      ['not JSON', '{"name": "P",'],
      ['empty', ''],
    ])('POST /api/projects with a body that is %s', async (_label, body) => {
      const response = await request(t.server)
        .post('/api/projects')
        .set('Content-Type', 'application/json')
        .send(body)
        .expect(500);
      expect(response.body).toEqual({
        error: 'Failed to create project',
        code: 'invalid_json',
      });
    });

    it.each([
      ['not JSON', 'name=x'],
      ['empty', ''],
    ])(
      'PATCH /api/projects/{id} with a body that is %s',
      async (_label, body) => {
        const project = await createProject(t, { name: 'Unchanged' });
        const response = await request(t.server)
          .patch(`/api/projects/${project.id}`)
          .set('Content-Type', 'application/json')
          .send(body)
          .expect(500);
        expect(response.body).toEqual({
          error: 'Failed to update project',
          code: 'invalid_json',
        });
        const after = await request(t.server).get(
          `/api/projects/${project.id}`,
        );
        expect(after.body.project.name).toBe('Unchanged');
      },
    );

    it('POST /api/ai/generate-logo answers with the parse error message', async () => {
      const response = await request(t.server)
        .post('/api/ai/generate-logo')
        .set('Content-Type', 'application/json')
        .send('{oops')
        .expect(500);
      expect(response.body).toEqual({
        success: false,
        error: expect.stringMatching(/JSON/),
        code: 'invalid_json',
      });
    });
  });

  describe('bodies are read as JSON whatever the Content-Type says', () => {
    it.each([
      ['text/plain'],
      ['application/x-www-form-urlencoded'],
      ['application/octet-stream'],
    ])('POST /api/projects with Content-Type %s', async (contentType) => {
      const response = await request(t.server)
        .post('/api/projects')
        .set('Content-Type', contentType)
        .send(validProject)
        .expect(201);
      expect(response.body.project.name).toBe('P');
    });

    it('POST /api/ai/generate-logo with Content-Type text/plain passes validation', async () => {
      // No key is configured here: reaching the key check proves the body was read.
      const response = await request(t.server)
        .post('/api/ai/generate-logo')
        .set('Content-Type', 'text/plain')
        .send(validLogo)
        .expect(500);
      expect(response.body.error).toMatch(/IMAGE_API_KEY/);
    });

    it('accepts bodies larger than the 100 kB default of Nest’s own parser', async () => {
      const body = JSON.stringify({
        name: 'Big',
        userId: 'u',
        padding: 'x'.repeat(200 * 1024),
      });
      await request(t.server)
        .post('/api/projects')
        .set('Content-Type', 'application/json')
        .send(body)
        .expect(201);
    });
  });

  describe('a body over BODY_LIMIT gives 413 in the route envelope and stores nothing', () => {
    const huge = JSON.stringify({
      name: 'Huge',
      userId: 'u',
      padding: 'x'.repeat(400 * 1024),
    });

    it('POST /api/projects', async () => {
      const response = await request(t.server)
        .post('/api/projects')
        .set('Content-Type', 'application/json')
        .send(huge)
        .expect(413);
      expect(response.body).toEqual({
        error: expect.any(String),
        code: 'body_too_large',
      });
      const list = await request(t.server).get('/api/projects');
      expect(list.body.projects).toEqual([]);
    });

    it('POST /api/ai/generate-logo', async () => {
      const response = await request(t.server)
        .post('/api/ai/generate-logo')
        .set('Content-Type', 'application/json')
        .send(huge)
        .expect(413);
      expect(response.body).toEqual({
        success: false,
        error: expect.any(String),
        code: 'body_too_large',
      });
    });
  });

  describe('unknown routes give 404 {error:"Not found"}', () => {
    it('before their body arrives: a body no route takes is never read', async () => {
      const answer = await answerBeforeBody(
        await listen(t),
        '/api/no-such-route',
      );
      expect(answer).toMatch(/^HTTP\/1\.1 404 /);
    });

    it.each([
      ['GET', '/'],
      ['GET', '/api'],
      ['GET', '/api/project'],
      ['PUT', '/api/projects'],
      ['POST', '/api/projects/some-id'],
      ['DELETE', '/api/ai/generate-logo'],
      // A trailing slash is not the route: generated clients read
      // /api/projects/ as /api/projects/{id} with an empty id.
      ['GET', '/api/projects/'],
      ['GET', '/api/projects/?userId=u'],
      ['POST', '/api/projects/'],
      ['GET', '/api/ai/generate-logo/'],
    ])('%s %s', async (method, path) => {
      const response = await request(t.server)
        [method.toLowerCase() as 'get'](path)
        .expect(404);
      expect(response.body).toEqual({ error: 'Not found', code: 'not_found' });
    });
  });

  it('every response is JSON and shows no stack trace, SQL or file path', async () => {
    const project = await createProject(t);
    const responses = await Promise.all([
      request(t.server).get('/api/projects'),
      request(t.server).get(`/api/projects/${project.id}`),
      request(t.server).get('/api/projects/missing'),
      request(t.server).patch('/api/projects/missing').send({ name: 'x' }),
      request(t.server).patch(`/api/projects/${project.id}`).send({ bad: 1 }),
      request(t.server).delete('/api/projects/missing'),
      request(t.server).post('/api/projects').send({ name: 1 }),
      request(t.server)
        .post('/api/projects')
        .set('Content-Type', 'application/json')
        .send('{'),
      request(t.server).get('/api/ai/generate-logo'),
      request(t.server).post('/api/ai/generate-logo').send({}),
      request(t.server).get('/nowhere'),
      request(t.server).delete(`/api/projects/${project.id}`),
    ]);
    for (const response of responses) {
      expect(response.headers['content-type']).toMatch(/^application\/json/);
      const text = JSON.stringify(response.body);
      expect(text).not.toMatch(
        /\bat \S+ \(|node_modules|\/work\/|SELECT|INSERT|UPDATE "|SQLITE|QueryFailed/,
      );
    }
  });
  // Found by the reliability fuzz (test/reliability): Express answered
  // these with its own 400 "Failed to decode param '%zz'".
  describe('a path segment with a broken percent-escape is an id like any other', () => {
    it.each(['%', '%zz', '%E0%A4%A', 'a%2'])(
      'GET /api/projects/%s answers 404 {error:"Project not found"}',
      async (segment) => {
        const response = await request(t.server)
          .get(`/api/projects/${segment}`)
          .expect(404);
        expect(response.body).toEqual({
          error: 'Project not found',
          code: 'project_not_found',
        });
      },
    );

    it('PATCH answers 500 {error:"Failed to update project"}', async () => {
      const response = await request(t.server)
        .patch('/api/projects/%zz')
        .send({ name: 'x' })
        .expect(500);
      expect(response.body).toEqual({
        error: 'Failed to update project',
        code: 'project_not_found',
      });
    });

    it('DELETE answers 500 {error:"Failed to delete project"}', async () => {
      const response = await request(t.server)
        .delete('/api/projects/%E0%A4%A')
        .expect(500);
      expect(response.body).toEqual({
        error: 'Failed to delete project',
        code: 'project_not_found',
      });
    });

    it('an unknown path with one answers 404 {error:"Not found"}', async () => {
      const response = await request(t.server).get('/nowhere/%zz').expect(404);
      expect(response.body).toEqual({ error: 'Not found', code: 'not_found' });
    });
  });

  // Found by the reliability fuzz: class-transformer walks nested values
  // recursively, and a few thousand levels overflowed the stack (500).
  describe('a body nested deeper than 32 levels is invalid input, not a failure', () => {
    const deep = (depth: number) =>
      `{"name":"P","userId":"u","extra":${'['.repeat(depth)}1${']'.repeat(depth)}}`;

    it('POST /api/projects answers 400 with a too_big issue for 10,000 levels', async () => {
      const response = await request(t.server)
        .post('/api/projects')
        .set('Content-Type', 'application/json')
        .send(deep(10_000))
        .expect(400);
      expect(response.body).toEqual({
        error: 'Invalid input',
        details: [
          {
            path: ['extra', ...Array<number>(31).fill(0)],
            message: 'Nesting must be at most 32 levels deep',
            code: 'too_big',
          },
        ],
        code: 'invalid_input',
      });
    });

    it('POST /api/ai/generate-logo answers 400 in its envelope', async () => {
      const response = await request(t.server)
        .post('/api/ai/generate-logo')
        .set('Content-Type', 'application/json')
        .send(
          `{"projectId":"p","companyName":"A","style":"modern","colors":["red"],"mood":${'['.repeat(5_000)}${']'.repeat(5_000)}}`,
        )
        .expect(400);
      expect(response.body).toMatchObject({
        success: false,
        error: 'Invalid input',
      });
    });

    it('a body nested 31 levels deep is still read (unknown fields are stripped)', async () => {
      await request(t.server)
        .post('/api/projects')
        .set('Content-Type', 'application/json')
        .send(deep(30))
        .expect(201);
    });
  });

  // Found by the reliability fuzz: Node's HTTP parser answered these
  // itself, with no body at all.
  describe('a request Node cannot parse gets a JSON body', () => {
    let port: number;

    beforeAll(async () => {
      port = Number(new URL(await listen(t)).port);
    });

    it.each([
      [
        'a garbage request line',
        'GARBAGE\r\n\r\n',
        400,
        'Bad request',
        'bad_request',
      ],
      [
        'conflicting Content-Lengths',
        'POST /api/projects HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nContent-Length: 6\r\n\r\n{}',
        400,
        'Bad request',
        'bad_request',
      ],
      [
        'headers over the size limit',
        `GET /api/projects?userId=${'a'.repeat(20_000)} HTTP/1.1\r\nHost: x\r\n\r\n`,
        431,
        'Request headers are too large',
        'headers_too_large',
      ],
    ])('%s: %d {error, code}', async (_label, bytes, status, error, code) => {
      const answer = parseRawAnswer(await sendRaw(port, bytes));
      expect(answer?.status).toBe(status);
      expect(answer?.headers['content-type']).toMatch(/^application\/json/);
      expect(JSON.parse(answer?.text ?? '')).toEqual({ error, code });
    });
  });
});
