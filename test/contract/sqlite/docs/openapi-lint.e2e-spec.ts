import { createConfig, lintFromString } from '@redocly/openapi-core';
import {
  Document,
  Spectral,
  type RulesetDefinition,
} from '@stoplight/spectral-core';
import { Json } from '@stoplight/spectral-parsers';
import { oas } from '@stoplight/spectral-rulesets';
import { ApiDocsModule } from '../../../../src/docs/api-docs.module';
import { createTestApp, type TestApp } from '../../../support/test-app';

/**
 * The document /docs-json serves passes two independent OpenAPI linters with
 * no error: Spectral's `spectral:oas` ruleset and Redocly's `recommended`
 * rules. Warnings (a missing contact or license, say) are not judged.
 */

type OpenApi = {
  paths: Record<string, Record<string, { operationId?: string }>>;
};

async function spectralErrors(document: object): Promise<string[]> {
  const spectral = new Spectral();
  spectral.setRuleset({
    extends: [[oas as RulesetDefinition, 'recommended']],
  });
  const results = await spectral.run(
    new Document(JSON.stringify(document, null, 2), Json),
  );
  return (
    results
      // 0 is Spectral's DiagnosticSeverity.Error.
      .filter((result) => Number(result.severity) === 0)
      .map((r) => `${r.code} at ${r.path.join('.')}: ${r.message}`)
  );
}

async function redoclyErrors(document: object): Promise<string[]> {
  const config = await createConfig({ extends: ['recommended'] });
  const problems = await lintFromString({
    source: JSON.stringify(document, null, 2),
    absoluteRef: 'openapi.json',
    config,
  });
  return problems
    .filter((problem) => problem.severity === 'error')
    .map(
      (p) =>
        `${p.ruleId} at ${p.location.map((l) => l.pointer).join(', ')}: ${p.message}`,
    );
}

describe('the OpenAPI document passes the linters', () => {
  let app: TestApp;
  let document: OpenApi;

  beforeAll(async () => {
    app = await createTestApp();
    document = structuredClone(
      app.app.get(ApiDocsModule).document,
    ) as unknown as OpenApi;
  });
  afterAll(async () => app?.close());

  it('has no error under Spectral (spectral:oas)', async () => {
    expect(await spectralErrors(document)).toEqual([]);
  });

  it("has no error under Redocly's recommended rules", async () => {
    expect(await redoclyErrors(document)).toEqual([]);
  });

  it('would fail: both linters report a document with a duplicated operationId', async () => {
    const broken = structuredClone(document);
    broken.paths['/api/projects'].get.operationId =
      broken.paths['/api/projects'].post.operationId;
    expect(await spectralErrors(broken)).toEqual([
      expect.stringContaining('operation-operationId-unique'),
    ]);
    expect(await redoclyErrors(broken)).toEqual([
      expect.stringContaining('operation-operationId-unique'),
    ]);
  });
});
