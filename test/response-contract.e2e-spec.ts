import { createServer, type Server } from 'node:http';
import request from 'supertest';
import { answerProblems } from './support/answer-contract';
import {
  ResponseContract,
  loadOpenApiDocument,
} from './support/openapi-responses';
import { createTestApp, type TestApp } from './support/test-app';

/**
 * The check every e2e response goes through (support/validate-responses
 * .setup.ts): it fails a test on a body or status the document does not
 * describe.
 */

function serverAnswering(status: number, body: unknown): Server {
  return createServer((_req, res) => {
    res.writeHead(status, { 'Content-Type': 'application/json' });
    res.end(JSON.stringify(body));
  });
}

describe('responses are checked against the OpenAPI document', () => {
  it('fails a supertest request whose body breaks the documented schema', async () => {
    const server = serverAnswering(200, { projects: 5 });
    await expect(request(server).get('/api/projects')).rejects.toThrow(
      'GET /api/projects answered 200 with a body the OpenAPI document does not allow',
    );
  });

  it('fails a supertest request answered with a status the document does not list', async () => {
    const server = serverAnswering(418, { error: 'teapot' });
    await expect(request(server).get('/api/projects/abc')).rejects.toThrow(
      'GET /api/projects/{id} answered 418, a status the OpenAPI document does not list',
    );
  });

  it('leaves paths the document does not describe alone', async () => {
    const server = serverAnswering(200, { anything: true });
    await request(server).get('/health/live').expect(200);
  });

  it("applies the document in the reliability drivers' checker too", () => {
    const info = {
      service: 'Image-model logo generator',
      status: 'configured',
      message: 'Logo generator is ready',
      supportedStyles: ['modern'],
      maxColors: 5.5,
    };
    const problems = answerProblems('logoInfo', {
      status: 200,
      headers: { 'content-type': 'application/json' },
      text: JSON.stringify(info),
    });
    expect(problems).toEqual(
      expect.arrayContaining([
        expect.stringContaining(
          'GET /api/ai/generate-logo answered 200 with a body the OpenAPI document does not allow',
        ),
      ]),
    );
  });

  it("accepts the reliability drivers' 429 on create (with Retry-After) and 415 on every body route", () => {
    const json = { 'content-type': 'application/json' };
    expect(
      answerProblems('create', {
        status: 429,
        headers: { ...json, 'retry-after': '12' },
        text: JSON.stringify({ error: 'Too many requests, retry later' }),
      }),
    ).toEqual([]);
    for (const operation of ['create', 'patch'] as const) {
      expect(
        answerProblems(operation, {
          status: 415,
          headers: json,
          text: JSON.stringify({ error: 'Unsupported media type' }),
        }),
      ).toEqual([]);
    }
    expect(
      answerProblems('logo', {
        status: 415,
        headers: json,
        text: JSON.stringify({
          success: false,
          error: 'Unsupported media type',
        }),
      }),
    ).toEqual([]);
  });

  it('refuses a 429 without Retry-After, and a 415 on a route without a body', () => {
    const json = { 'content-type': 'application/json' };
    expect(
      answerProblems('create', {
        status: 429,
        headers: json,
        text: JSON.stringify({ error: 'Too many requests, retry later' }),
      }),
    ).toContain('no Retry-After seconds header');
    expect(
      answerProblems('delete', {
        status: 415,
        headers: json,
        text: JSON.stringify({ error: 'Unsupported media type' }),
      }),
    ).not.toEqual([]);
  });

  describe('against the running service', () => {
    let app: TestApp;
    beforeAll(async () => {
      app = await createTestApp();
    });
    afterAll(async () => app?.close());

    it("would catch a validation code missing from the document's enum (custom, for a bad cursor)", async () => {
      const res = await request(app.server)
        .get('/api/projects?limit=2&cursor=abc')
        .expect(400);
      const document = loadOpenApiDocument();
      const issue = document.components?.schemas?.ValidationIssueDto as {
        properties: { code: { enum: string[] } };
      };
      issue.properties.code.enum = issue.properties.code.enum.filter(
        (code) => code !== 'custom',
      );
      expect(
        new ResponseContract(document).problem(
          'GET',
          '/api/projects',
          res.status,
          res.body,
        ),
      ).toContain('does not allow');
    });
  });
});
