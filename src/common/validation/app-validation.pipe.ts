import {
  ArgumentMetadata,
  Injectable,
  ValidationError,
  ValidationPipe,
} from '@nestjs/common';
import { InputValidationException } from '../../failures/input-validation.error';
import { keepDeclaredProperties } from './declared-properties';
import { dtoTransformer } from './dto-transformer';
import { tooDeepIssue } from './nesting-depth';
import { toValidationIssues } from './validation-issue';

/** Bodies reduced to their DTO's declared properties (see transform). */
const declaredBodies = new WeakSet<object>();

/**
 * The data of a custom parameter decorator that builds the request body
 * (such as CallerBody): the pipe validates it as it validates `@Body()`.
 */
export const REQUEST_BODY = 'workspace:request-body';

function describeJsonType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}

/**
 * The global validation pipe: unknown fields are stripped, failures become
 * InputValidationException, and one failed rule per field is reported (as
 * Zod does; which one: validation-issue.ts). Every rule runs (no
 * stopAtFirstError) so that a wrong type can be told from a broken limit.
 */
@Injectable()
export class AppValidationPipe extends ValidationPipe {
  constructor() {
    super({
      whitelist: true,
      transform: true,
      // Builds a body's DTO in one pass over its declared properties
      // instead of class-transformer's walk (see dto-transformer.ts).
      transformerPackage: dtoTransformer,
      // The target and value let an issue name the array item that broke a
      // rule (validation-issue.ts); neither is ever sent to a client.
      validationError: { target: true, value: true },
      exceptionFactory: (errors: ValidationError[]) =>
        new InputValidationException(toValidationIssues(errors)),
    });
  }

  override async transform(
    value: unknown,
    metadata: ArgumentMetadata,
  ): Promise<unknown> {
    // ValidationPipe would turn null into {} and validate an array element by
    // element; a body that is not a JSON object is simply invalid input.
    const isBody =
      metadata.type === 'body' ||
      (metadata.type === 'custom' && metadata.data === REQUEST_BODY);
    const isDtoBody =
      isBody && metadata.metatype !== undefined && metadata.metatype !== Object;
    if (
      isDtoBody &&
      (typeof value !== 'object' || value === null || Array.isArray(value))
    ) {
      throw new InputValidationException([
        {
          path: [],
          message: `Expected object, received ${describeJsonType(value)}`,
          code: 'invalid_type',
        },
      ]);
    }
    if (isDtoBody) {
      const tooDeep = await tooDeepIssue(value);
      if (tooDeep) throw new InputValidationException([tooDeep]);
      // Unknown fields are ignored (stripped) on every DTO body; dropping
      // them here, in a pass as long as the DTO's declared properties,
      // means no later step ever handles them.
      const declared = keepDeclaredProperties(
        value as object,
        metadata.metatype,
      );
      declaredBodies.add(declared);
      return super.transform(declared, {
        ...metadata,
        type: 'body',
      }) as Promise<unknown>;
    }
    return super.transform(value, metadata) as Promise<unknown>;
  }

  // ValidationPipe walks the whole value twice before transforming it: to
  // close the gaps of sparse arrays and to delete prototype keys that
  // class-transformer would copy onto the instance. A body parsed from JSON
  // has no sparse array, and a declared body is never copied by
  // class-transformer (dto-transformer.ts), so neither walk applies to it;
  // on a 1 MB body they held the event loop for 30-50 ms each.
  protected override closeArrayGaps(value: unknown): void {
    if (!declaredBodies.has(value as object)) super.closeArrayGaps(value);
  }

  protected override stripProtoKeys(value: unknown): void {
    if (!declaredBodies.has(value as object)) super.stripProtoKeys(value);
  }
}
