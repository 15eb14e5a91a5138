import type { ArgumentMetadata } from '@nestjs/common';
import type { TransformOperationExecutor as Executor } from 'class-transformer/types/TransformOperationExecutor';
import { CreateProjectDto } from '../../projects/dto/create-project.dto';
import { ListProjectsQuery } from '../../projects/dto/list-projects-query.dto';
import { GenerateLogoDto } from '../../logo/dto/generate-logo.dto';
import { InputValidationException } from '../../failures/input-validation.error';
import { AppValidationPipe } from './app-validation.pipe';
import type { ValidationIssue } from '../../failures/validation-issue';
import { declaresConversions, dtoTransformer } from './dto-transformer';

// The class that walks every value class-transformer copies (its only
// export path; the types live apart from it).
const { TransformOperationExecutor } =
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  require('class-transformer/cjs/TransformOperationExecutor') as {
    TransformOperationExecutor: typeof Executor;
  };

const pipe = new AppValidationPipe();
const body: ArgumentMetadata = { type: 'body', metatype: CreateProjectDto };
const query: ArgumentMetadata = { type: 'query', metatype: ListProjectsQuery };
const logo: ArgumentMetadata = { type: 'body', metatype: GenerateLogoDto };

async function issuesFor(
  value: unknown,
  metadata: ArgumentMetadata,
): Promise<ValidationIssue[]> {
  try {
    await pipe.transform(value, metadata);
  } catch (error) {
    if (error instanceof InputValidationException) return error.issues;
    throw error;
  }
  throw new Error('the value passed validation');
}

describe('AppValidationPipe: which rule a field is reported by', () => {
  it('reports a missing required field as Required, not as a wrong type', async () => {
    expect(await issuesFor({ name: 'P' }, body)).toEqual([
      { path: ['userId'], message: 'Required', code: 'invalid_type' },
    ]);
  });

  it('reports a number where a string belongs as a wrong type, not as a NUL character', async () => {
    expect(await issuesFor({ name: 123, userId: 'u' }, body)).toEqual([
      { path: ['name'], message: 'Expected string', code: 'invalid_type' },
    ]);
  });

  it('reports a repeated userId query parameter (an array) as a wrong type', async () => {
    expect(await issuesFor({ userId: ['a', 'b'] }, query)).toEqual([
      { path: ['userId'], message: 'Expected string', code: 'invalid_type' },
    ]);
  });

  it('reports a repeated limit query parameter as not an integer, not as too big', async () => {
    expect(await issuesFor({ limit: ['1', '2'] }, query)).toEqual([
      { path: ['limit'], message: 'Expected integer', code: 'invalid_type' },
    ]);
  });

  it('reports the first failed rule in declared order when the type is right', async () => {
    // Both the length limit and the NUL rule fail; the DTO declares the
    // length limit first.
    const name = `${'x'.repeat(100)}\u0000`;
    expect(await issuesFor({ name, userId: 'u' }, body)).toEqual([
      {
        path: ['name'],
        message: 'String must contain at most 100 character(s)',
        code: 'too_big',
      },
    ]);
  });

  it('reports one issue per failed field', async () => {
    expect(await issuesFor({ name: '', userId: 7 }, body)).toEqual([
      {
        path: ['name'],
        message: 'String must contain at least 1 character(s)',
        code: 'too_small',
      },
      { path: ['userId'], message: 'Expected string', code: 'invalid_type' },
    ]);
  });

  it('names the index of the first wrong item of an array, as Zod does', async () => {
    const request = {
      projectId: 'p',
      companyName: 'Acme',
      style: 'modern',
      colors: ['navy', 7, 'gold'],
    };
    expect(await issuesFor(request, logo)).toEqual([
      {
        path: ['colors', 1],
        message: 'Expected every item to be a string',
        code: 'invalid_type',
      },
    ]);
  });

  it('keeps a field without its index when the rule is not one for each item', async () => {
    expect(await issuesFor({ name: [1], userId: 'u' }, body)).toEqual([
      { path: ['name'], message: 'Expected string', code: 'invalid_type' },
    ]);
  });
});

describe('AppValidationPipe: well-formed text', () => {
  it('refuses a name holding a lone surrogate with invalid_string', async () => {
    expect(await issuesFor({ name: 'a\ud800', userId: 'u' }, body)).toEqual([
      {
        path: ['name'],
        message: 'String must be well-formed Unicode (no lone surrogates)',
        code: 'invalid_string',
      },
    ]);
  });

  it('reports the NUL rule first when a value holds NUL and a lone surrogate', async () => {
    expect(
      await issuesFor({ name: '\u0000\ud800', userId: 'u' }, body),
    ).toEqual([
      {
        path: ['name'],
        message: 'String must not contain NUL characters',
        code: 'invalid_string',
      },
    ]);
  });

  it('names the color holding a lone surrogate by its index', async () => {
    const request = {
      projectId: 'p',
      companyName: 'Acme',
      style: 'modern',
      colors: ['navy', 'gold\udfff'],
    };
    expect(await issuesFor(request, logo)).toEqual([
      {
        path: ['colors', 1],
        message: 'String must be well-formed Unicode (no lone surrogates)',
        code: 'invalid_string',
      },
    ]);
  });

  it.each(['projectId', 'companyName', 'description', 'industry'])(
    'refuses a logo %s holding a lone surrogate',
    async (field) => {
      const request = {
        projectId: 'p',
        companyName: 'Acme',
        style: 'modern',
        colors: ['navy'],
        [field]: '\ud800',
      };
      expect(await issuesFor(request, logo)).toEqual([
        {
          path: [field],
          message: 'String must be well-formed Unicode (no lone surrogates)',
          code: 'invalid_string',
        },
      ]);
    },
  );

  it('accepts surrogate pairs', async () => {
    await expect(
      pipe.transform({ name: '🚀', userId: '𝔘' }, body),
    ).resolves.toEqual({ name: '🚀', userId: '𝔘' });
  });
});

/**
 * class-transformer de-duplicates the keys of every object it copies by
 * comparing each key with every other: a body with 70,000 keys, anywhere in
 * it, held the event loop for seconds. These tests pin that no request body
 * reaches it, whatever class-transformer version is installed.
 */
describe('AppValidationPipe: what reaches the transformer', () => {
  const manyKeys = (count: number) =>
    Object.fromEntries(
      Array.from({ length: count }, (_, i) => [`k${i}`, i] as const),
    );

  afterEach(() => jest.restoreAllMocks());

  it('hands the transformer only the DTO declared properties of a body', async () => {
    const toInstance = jest.spyOn(dtoTransformer, 'plainToInstance');
    const result = await pipe.transform(
      { name: 'P', userId: 'u', extra: manyKeys(10), ...manyKeys(1_000) },
      body,
    );
    expect(toInstance).toHaveBeenCalledTimes(1);
    expect(Object.keys(toInstance.mock.calls[0][1] as object).sort()).toEqual([
      'name',
      'userId',
    ]);
    expect(result).toBeInstanceOf(CreateProjectDto);
    expect(result).toEqual({ name: 'P', userId: 'u' });
  });

  it.each([
    ['unknown top-level keys', { name: 'P', userId: 'u', ...manyKeys(5_000) }],
    [
      'an unknown field holding many keys',
      { name: 'P', userId: 'u', x: manyKeys(5_000) },
    ],
    ['a known field holding many keys', { name: manyKeys(5_000), userId: 'u' }],
    [
      'an array item holding many keys',
      { name: 'P', userId: [manyKeys(5_000)] },
    ],
  ])(
    'never lets class-transformer walk a create body: %s',
    async (_label, value) => {
      const walk = jest.spyOn(
        TransformOperationExecutor.prototype,
        'transform',
      );
      await pipe.transform(value, body).catch(() => undefined);
      expect(walk).not.toHaveBeenCalled();
    },
  );

  it('never lets class-transformer walk a logo body', async () => {
    const walk = jest.spyOn(TransformOperationExecutor.prototype, 'transform');
    await pipe
      .transform(
        {
          projectId: 'p',
          companyName: 'Acme',
          style: 'modern',
          colors: [manyKeys(5_000)],
          mood: manyKeys(5_000),
          ...manyKeys(5_000),
        },
        logo,
      )
      .catch(() => undefined);
    expect(walk).not.toHaveBeenCalled();
  });

  it('builds every body DTO without class-transformer (none declares a conversion)', () => {
    expect(declaresConversions(CreateProjectDto)).toBe(false);
    expect(declaresConversions(GenerateLogoDto)).toBe(false);
  });

  it('still converts the list query through class-transformer (its limit is a number)', async () => {
    await expect(pipe.transform({ limit: '20' }, query)).resolves.toEqual({
      limit: 20,
    });
    expect(declaresConversions(ListProjectsQuery)).toBe(true);
  });
});
