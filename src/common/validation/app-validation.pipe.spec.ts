import type { ArgumentMetadata } from '@nestjs/common';
import { CreateProjectDto } from '../../projects/dto/create-project.dto';
import { ListProjectsQuery } from '../../projects/dto/list-projects.query';
import { GenerateLogoDto } from '../../logo/dto/generate-logo.dto';
import { InputValidationException } from '../errors/input-validation.exception';
import { AppValidationPipe } from './app-validation.pipe';
import type { ValidationIssue } from './validation-issue';

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
