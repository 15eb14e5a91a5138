import { createHash } from 'node:crypto';
import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import type { Request } from 'express';
import { InputValidationException } from '../failures/input-validation.error';
import type { ReplayableAnswer } from './replayable-answer';
import {
  getBodyDigest,
  getRequestContext,
} from '../common/http/request-context';

/** A request's Idempotency-Key, as the store needs it. */
export interface IdempotentKey {
  /** SHA-256 of operation, caller and key: the stored record's id. */
  recordId: string;
  /** SHA-256 of the request body's bytes: a retry sends the same bytes. */
  fingerprint: string;
}

/**
 * A key with the route's own mapping of its result to the answer that is
 * stored and replayed: the services that do the work hand over their
 * result and never build an answer, and the route sends a fresh result
 * with the same mapping, so a replay is the same answer.
 */
export interface IdempotentRequest<Result = never> extends IdempotentKey {
  /** The answer a result of the work is sent as (the feature's replies). */
  answerOf: (result: Result) => ReplayableAnswer;
}

/** Which operation a key belongs to, and how its answer is made. */
export interface IdempotentOperation<Result> {
  /** Method and path, e.g. `POST /api/projects`: keys are per operation. */
  operation: string;
  answerOf: (result: Result) => ReplayableAnswer;
}

export const IDEMPOTENCY_KEY_HEADER = 'Idempotency-Key';

/** 1 to 255 printable ASCII characters (spaces inside the key allowed). */
const KEY = /^[\x20-\x7e]{1,255}$/;

const sha256 = (text: string) =>
  createHash('sha256').update(text).digest('hex');

function invalidKey(message: string): InputValidationException {
  return new InputValidationException([
    { path: [IDEMPOTENCY_KEY_HEADER], message, code: 'invalid_string' },
  ]);
}

/**
 * The request's Idempotency-Key for the given operation, or undefined
 * when it sends none. A malformed or repeated key is invalid input (400).
 */
export const IdempotencyKey = createParamDecorator(
  (
    { operation, answerOf }: IdempotentOperation<never>,
    context: ExecutionContext,
  ): IdempotentRequest<never> | undefined => {
    const request = context.switchToHttp().getRequest<Request>();
    const key = request.headers['idempotency-key'];
    if (key === undefined) return undefined;
    // Node joins a repeated header into one value; the raw list tells.
    const sent = request.rawHeaders.filter(
      (name, index) =>
        index % 2 === 0 && name.toLowerCase() === 'idempotency-key',
    ).length;
    if (sent > 1) throw invalidKey('Idempotency-Key must be sent once');
    if (typeof key !== 'string' || !KEY.test(key)) {
      throw invalidKey(
        'Idempotency-Key must be 1 to 255 printable ASCII characters',
      );
    }
    return {
      // Scoped to the client key, so two clients choosing the same key
      // never see each other's answers.
      recordId: sha256(
        `${operation}\n${getRequestContext(request).clientKey}\n${key}`,
      ),
      fingerprint: getBodyDigest(request) ?? sha256(''),
      answerOf,
    };
  },
);
