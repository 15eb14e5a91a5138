import request from 'supertest';
import { loadOpenApiDocument } from '../../../support/openapi-responses';
import { createProject } from '../../../support/project-fixtures';
import { createTestApp, type TestApp } from '../../../support/test-app';

/**
 * The document's POST /api/projects/{id}/tasks body is one schema per task
 * type, and each says `input` is required exactly when the server refuses
 * that type without one (it validates a missing input as `{}`): a client
 * generated from it compiles no body the server refuses for lack of input,
 * and refuses none the server takes.
 */

interface ObjectSchema {
  required?: string[];
  properties: { type: { enum: string[] } };
}

describe('the task body schema of each task type', () => {
  const document = loadOpenApiDocument();
  const schemas = document.components!.schemas! as unknown as Record<
    string,
    ObjectSchema & { discriminator: { mapping: Record<string, string> } }
  >;
  const mapping = schemas.CreateTaskDto.discriminator.mapping;
  let t: TestApp;
  let projectId: string;

  beforeAll(async () => {
    t = await createTestApp();
    projectId = (await createProject(t)).id;
  });
  afterAll(() => t?.close());

  it('names every task type the server runs', () => {
    const member = (type: string) => schemas[mapping[type].split('/').pop()!];
    expect(Object.keys(mapping).sort()).toEqual(
      [
        ...(document.components!.schemas!.TaskType as { enum: string[] }).enum,
      ].sort(),
    );
    for (const type of Object.keys(mapping)) {
      expect(member(type).properties.type.enum).toEqual([type]);
      expect(member(type).required).toContain('type');
    }
  });

  it.each(Object.keys(mapping))(
    '%s: input is required in the document exactly when the server refuses the type without it',
    async (type) => {
      const schema = schemas[mapping[type].split('/').pop()!];
      const response = await request(t.server)
        .post(`/api/projects/${projectId}/tasks`)
        .send({ type });
      const refusedForInput =
        response.status === 400 &&
        (
          response.body as { details?: Array<{ path: string[] }> }
        ).details?.some((issue) => issue.path[0] === 'input') === true;
      expect([type, refusedForInput]).toEqual([
        type,
        schema.required?.includes('input') ?? false,
      ]);
    },
  );
});
