import { AssetLimitReachedException } from '../assets/assets.errors';
import { ServiceBusyError } from '../failures/retry-later.error';
import { ImageApiCallError } from '../logo/image-api-call.error';
import { LogoGenerationError } from '../logo/logo-generation.error';
import { KEY_MISSING_MESSAGE, TIMEOUT_MESSAGE } from '../logo/logo.constants';
import { BudgetExceededError } from '../usage/budget-exceeded.error';
import { TASK_ERROR_CODES } from './dto/task.dto';
import { describeTaskFailure } from './task-failure';

describe('describeTaskFailure', () => {
  it("an upstream outage is retried (after the provider's Retry-After); a refusal is not", () => {
    expect(
      describeTaskFailure(new ImageApiCallError('Overloaded', true, 7000)),
    ).toEqual({
      error: { code: 'upstream_error', message: 'Overloaded' },
      retryable: true,
      retryAfterMs: 7000,
    });
    expect(
      describeTaskFailure(
        new ImageApiCallError('Too slow', true, undefined, 'timeout'),
      ).error.code,
    ).toBe('timeout');
    expect(
      describeTaskFailure(new ImageApiCallError('Bad prompt', false)),
    ).toEqual({
      error: { code: 'refused', message: 'Bad prompt' },
      retryable: false,
      retryAfterMs: undefined,
    });
  });

  it('a moderation block keeps the logo route’s own code and is never retried', () => {
    const blocked = new ImageApiCallError(
      'Blocked by moderation',
      false,
      undefined,
      'error_response',
      undefined,
      'moderation_blocked',
    );
    expect(describeTaskFailure(blocked)).toEqual({
      error: { code: 'moderation_blocked', message: 'Blocked by moderation' },
      retryable: false,
    });
  });

  it('a missing key or an invalid answer fails at once; our deadline is retried', () => {
    expect(
      describeTaskFailure(new LogoGenerationError(KEY_MISSING_MESSAGE)),
    ).toMatchObject({ error: { code: 'not_configured' }, retryable: false });
    expect(
      describeTaskFailure(new LogoGenerationError('Invalid answer')),
    ).toMatchObject({ error: { code: 'invalid_answer' }, retryable: false });
    expect(
      describeTaskFailure(new LogoGenerationError(TIMEOUT_MESSAGE)),
    ).toMatchObject({ error: { code: 'timeout' }, retryable: true });
  });

  it('a spent budget or a full project fails the task without another attempt', () => {
    expect(
      describeTaskFailure(new BudgetExceededError('Over budget', 3600)),
    ).toMatchObject({ error: { code: 'budget_exceeded' }, retryable: false });
    expect(
      describeTaskFailure(new AssetLimitReachedException(50)),
    ).toMatchObject({ error: { code: 'asset_limit' }, retryable: false });
  });

  it('a full line is retried after its Retry-After', () => {
    expect(describeTaskFailure(new ServiceBusyError('Busy', 5))).toEqual({
      error: { code: 'busy', message: 'Busy' },
      retryable: true,
      retryAfterMs: 5000,
    });
  });

  it('a failure that says what it is is taken at its word', () => {
    const told = Object.assign(new Error('The logo was deleted'), {
      code: 'logo_gone',
      retryable: false,
    });
    expect(describeTaskFailure(told)).toEqual({
      error: { code: 'logo_gone', message: 'The logo was deleted' },
      retryable: false,
      retryAfterMs: undefined,
    });
  });

  it('our own failure is retried and told without its detail', () => {
    for (const error of [new Error('SQLITE_BUSY at /srv/db'), 'a string']) {
      expect(describeTaskFailure(error)).toEqual({
        error: { code: 'internal', message: 'The task failed' },
        retryable: true,
      });
    }
  });

  it('a failure whose code the document does not list is told as our own', () => {
    const told = Object.assign(new Error('Something new'), {
      code: 'brand_new_code',
      retryable: false,
    });
    expect(describeTaskFailure(told)).toEqual({
      error: { code: 'internal', message: 'The task failed' },
      retryable: true,
    });
  });

  it('every code a task fails with is one the document lists', () => {
    const codes = [
      new ImageApiCallError('Overloaded', true, 7000),
      new ImageApiCallError('No', false),
      new LogoGenerationError(KEY_MISSING_MESSAGE),
      new LogoGenerationError(TIMEOUT_MESSAGE),
      new LogoGenerationError('bad'),
      new AssetLimitReachedException(10),
      new ServiceBusyError('Busy', 5),
      new Error('ours'),
    ].map((error) => describeTaskFailure(error).error.code);
    for (const code of codes) expect(TASK_ERROR_CODES).toContain(code);
  });
});
