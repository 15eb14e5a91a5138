import { Test } from 'supertest';
import { ResponseContract, loadOpenApiDocument } from './openapi-responses';

/**
 * Jest setup of the e2e suites: every response a test receives through
 * supertest is checked against the OpenAPI document, so a body or status
 * the document does not describe fails the test that received it — the
 * document cannot drift from what the service answers.
 */

const contract = new ResponseContract(loadOpenApiDocument());

type AssertCallback = (error: Error | null, res: unknown) => void;
interface SupertestInternals {
  method: string;
  url: string;
  assert(
    resError: Error | null,
    res: ReceivedResponse,
    fn?: AssertCallback,
  ): void;
}
interface ReceivedResponse {
  status: number;
  body: unknown;
  headers: Record<string, unknown>;
}

const prototype = Test.prototype as unknown as SupertestInternals;
const assertResponse = prototype.assert;

prototype.assert = function (this: SupertestInternals, resError, res, fn) {
  const problem = res
    ? contract.problem(
        this.method,
        new URL(this.url).pathname,
        res.status,
        // supertest shows a 304's (and a 204's) absent body as {}.
        res.status === 304 || res.status === 204 ? null : res.body,
        res.headers,
      )
    : undefined;
  if (!problem || !fn) {
    assertResponse.call(this, resError, res, fn);
    return;
  }
  // The test's own expectations are reported first; the document's after.
  assertResponse.call(this, resError, res, (error, response) =>
    fn.call(this, error ?? new Error(problem), response),
  );
};
