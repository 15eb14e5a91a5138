import {
  BadRequestException,
  ConflictException,
  InternalServerErrorException,
  NotFoundException,
  PayloadTooLargeException,
} from '@nestjs/common';
import { ProjectNotFoundException } from '../project-scope/project-scope.errors';
import { ClientClosedRequestError } from './client-closed-request.error';
import { InputValidationException } from './input-validation.error';
import { PublicError } from './public.error';
import { ServiceBusyError, TooManyRequestsError } from './retry-later.error';
import type { ValidationIssue } from './validation-issue';
import { describeFailure } from './describe-failure';
import type { FailurePolicy } from './failure-message.decorator';

/** A project route: {error}, fixed text only. */
const projectPolicy: FailurePolicy = {
  message: 'Failed to create project',
  envelope: 'error',
  exposePublicErrors: false,
  unreadableBodyIsClientError: false,
};

/** The logo route: {success:false, error}, public messages shown. */
const logoPolicy: FailurePolicy = {
  message: 'Failed to generate logo',
  envelope: 'success-flag',
  exposePublicErrors: true,
  unreadableBodyIsClientError: false,
};

const issues: ValidationIssue[] = [
  { path: ['name'], message: 'Required', code: 'invalid_type' },
  {
    path: ['colors', 0],
    message: 'Expected every item to be a string',
    code: 'invalid_type',
  },
];

describe('describeFailure', () => {
  describe('InputValidationException', () => {
    it('is 400 {error:"Invalid input", details} in the error envelope', () => {
      expect(
        describeFailure(new InputValidationException(issues), projectPolicy),
      ).toEqual({
        status: 400,
        body: {
          error: 'Invalid input',
          details: issues,
          code: 'invalid_input',
        },
      });
    });

    it('is 400 {success:false, error:"Invalid input", details} in the success-flag envelope', () => {
      expect(
        describeFailure(new InputValidationException(issues), logoPolicy),
      ).toEqual({
        status: 400,
        body: {
          success: false,
          error: 'Invalid input',
          details: issues,
          code: 'invalid_input',
        },
      });
    });

    it('keeps an empty details list as a list', () => {
      expect(
        describeFailure(new InputValidationException([]), logoPolicy).body
          .details,
      ).toEqual([]);
    });
  });

  it('maps ProjectNotFoundException to 404 {error:"Project not found"}', () => {
    expect(
      describeFailure(new ProjectNotFoundException(), {
        ...projectPolicy,
        message: 'Failed to fetch project',
      }),
    ).toEqual({
      status: 404,
      body: { error: 'Project not found', code: 'project_not_found' },
    });
  });

  it('maps an unknown-route NotFoundException (no policy) to 404 {error:"Not found"} without routing details', () => {
    const result = describeFailure(
      new NotFoundException('Cannot GET /api/nowhere'),
      undefined,
    );
    expect(result).toEqual({
      status: 404,
      body: { error: 'Not found', code: 'not_found' },
    });
    expect(JSON.stringify(result)).not.toContain('/api/nowhere');
  });

  it('maps a plain Error with a policy to 500 with the policy message, not the error text', () => {
    const result = describeFailure(
      new Error('SQLITE_BUSY: database is locked at /srv/data/workspace.db'),
      projectPolicy,
    );
    expect(result).toEqual({
      status: 500,
      body: { error: 'Failed to create project', code: 'internal_error' },
    });
  });

  it('maps a plain Error on the logo route to 500 {success:false, error:"Failed to generate logo"}', () => {
    expect(describeFailure(new Error('boom'), logoPolicy)).toEqual({
      status: 500,
      body: {
        success: false,
        error: 'Failed to generate logo',
        code: 'internal_error',
      },
    });
  });

  it('shows a PublicError message when the policy exposes public errors', () => {
    expect(
      describeFailure(new PublicError('Your prompt was rejected'), logoPolicy),
    ).toEqual({
      status: 500,
      body: {
        success: false,
        error: 'Your prompt was rejected',
        code: 'internal_error',
      },
    });
  });

  it('shows a PublicError subclass message when the policy exposes public errors', () => {
    class UpstreamError extends PublicError {}
    expect(
      describeFailure(new UpstreamError('Upstream said no'), logoPolicy).body,
    ).toEqual({
      success: false,
      error: 'Upstream said no',
      code: 'internal_error',
    });
  });

  it('hides a PublicError message behind the policy message when the policy does not expose public errors', () => {
    expect(
      describeFailure(new PublicError('Unknown key: sections'), {
        ...projectPolicy,
        message: 'Failed to update project',
      }),
    ).toEqual({
      status: 500,
      body: { error: 'Failed to update project', code: 'internal_error' },
    });
  });

  it('maps PayloadTooLargeException with a policy to 413 in the error envelope', () => {
    expect(
      describeFailure(
        new PayloadTooLargeException('Request body is too large'),
        projectPolicy,
      ),
    ).toEqual({
      status: 413,
      body: { error: 'Request body is too large', code: 'body_too_large' },
    });
  });

  it('maps PayloadTooLargeException with a policy to 413 in the success-flag envelope', () => {
    expect(
      describeFailure(
        new PayloadTooLargeException('Request body is too large'),
        logoPolicy,
      ),
    ).toEqual({
      status: 413,
      body: {
        success: false,
        error: 'Request body is too large',
        code: 'body_too_large',
      },
    });
  });

  it('keeps the status of another client-error HttpException and puts it in the route envelope', () => {
    expect(
      describeFailure(new BadRequestException('Bad thing'), logoPolicy),
    ).toEqual({
      status: 400,
      body: { success: false, error: 'Bad thing', code: 'invalid_input' },
    });
  });

  it("adds a client error's own body fields (a refused publish's report), never over error or code", () => {
    const refusal = Object.assign(new ConflictException('Checked and failed'), {
      code: 'site_check_failed',
      bodyFields: { report: { score: 10 }, error: 'x', code: 'y' },
    });
    expect(describeFailure(refusal, projectPolicy)).toEqual({
      status: 409,
      body: {
        error: 'Checked and failed',
        report: { score: 10 },
        code: 'site_check_failed',
      },
    });
  });

  it('maps a server-error HttpException with a policy to 500 with the policy message', () => {
    expect(
      describeFailure(
        new InternalServerErrorException('connection string postgres://x'),
        projectPolicy,
      ),
    ).toEqual({
      status: 500,
      body: { error: 'Failed to create project', code: 'internal_error' },
    });
  });

  it('maps a thrown string to 500 with the policy message', () => {
    expect(describeFailure('something odd', logoPolicy)).toEqual({
      status: 500,
      body: {
        success: false,
        error: 'Failed to generate logo',
        code: 'internal_error',
      },
    });
  });

  it('maps thrown undefined and null to 500 with the policy message', () => {
    for (const thrown of [undefined, null, 42, { message: 'not an error' }]) {
      expect(describeFailure(thrown, projectPolicy)).toEqual({
        status: 500,
        body: { error: 'Failed to create project', code: 'internal_error' },
      });
    }
  });

  it('maps a plain Error with no policy to 500 {error:"Internal server error"}', () => {
    expect(describeFailure(new Error('secret detail'), undefined)).toEqual({
      status: 500,
      body: { error: 'Internal server error', code: 'internal_error' },
    });
  });

  it('hides the message of a server-error HttpException when no route matched', () => {
    expect(
      describeFailure(
        new InternalServerErrorException('pool exhausted at 10.0.0.5'),
        undefined,
      ),
    ).toEqual({
      status: 500,
      body: { error: 'Internal server error', code: 'internal_error' },
    });
  });

  it('does not expose a PublicError message when there is no policy', () => {
    expect(describeFailure(new PublicError('detail'), undefined)).toEqual({
      status: 500,
      body: { error: 'Internal server error', code: 'internal_error' },
    });
  });

  describe('refusals the client may retry (README, logo generation in production)', () => {
    it('maps ServiceBusyError to 503 in the route envelope with a Retry-After header', () => {
      expect(
        describeFailure(
          new ServiceBusyError('Logo generator is busy, retry later', 10),
          logoPolicy,
        ),
      ).toEqual({
        status: 503,
        body: {
          success: false,
          error: 'Logo generator is busy, retry later',
          code: 'busy',
        },
        headers: { 'Retry-After': '10' },
      });
    });

    it('maps TooManyRequestsError to 429 in the route envelope with a Retry-After header', () => {
      expect(
        describeFailure(
          new TooManyRequestsError('Too many logo requests, retry later', 42),
          logoPolicy,
        ),
      ).toEqual({
        status: 429,
        body: {
          success: false,
          error: 'Too many logo requests, retry later',
          code: 'rate_limited',
        },
        headers: { 'Retry-After': '42' },
      });
    });
  });

  it('maps ClientClosedRequestError to 499 (nobody is there to read it)', () => {
    expect(
      describeFailure(new ClientClosedRequestError(), logoPolicy).status,
    ).toBe(499);
  });
});
