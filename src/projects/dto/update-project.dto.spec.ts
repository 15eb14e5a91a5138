import { ProjectChangeRejectedError } from '../projects.errors';
import { parseProjectUpdate } from './update-project.dto';

describe('parseProjectUpdate', () => {
  it('takes name and description of any length as given, the empty name too', () => {
    const body = { name: '', description: 'd'.repeat(600_000) };
    expect(parseProjectUpdate(body)).toEqual(body);
    expect(parseProjectUpdate({ name: 'n'.repeat(150) })).toEqual({
      name: 'n'.repeat(150),
    });
  });

  it('keeps userId within the 255 characters its index holds on both databases', () => {
    expect(parseProjectUpdate({ userId: 'u'.repeat(255) })).toEqual({
      userId: 'u'.repeat(255),
    });
    expect(() => parseProjectUpdate({ userId: 'u'.repeat(256) })).toThrow(
      ProjectChangeRejectedError,
    );
  });

  it.each<[string, unknown]>([
    ['NUL', { name: 'a\u0000b' }],
    ['a lone surrogate', { description: 'a\ud800' }],
    ['a wrong JSON type', { name: 5 }],
    ['null for name', { name: null }],
    ['an unknown field', { sections: [] }],
    ['a body that is not an object', ['x']],
  ])('refuses what a database cannot store as sent: %s', (_label, body) => {
    expect(() => parseProjectUpdate(body)).toThrow(ProjectChangeRejectedError);
  });

  it("applies create's lengths when asked (PATCH_LENGTH_LIMITS)", () => {
    const rules = { createLengths: true };
    expect(() => parseProjectUpdate({ name: '' }, rules)).toThrow(
      ProjectChangeRejectedError,
    );
    expect(() => parseProjectUpdate({ name: 'n'.repeat(101) }, rules)).toThrow(
      ProjectChangeRejectedError,
    );
    expect(() =>
      parseProjectUpdate({ description: 'd'.repeat(501) }, rules),
    ).toThrow(ProjectChangeRejectedError);
    expect(
      parseProjectUpdate({ name: 'n'.repeat(100), description: null }, rules),
    ).toEqual({ name: 'n'.repeat(100), description: null });
  });
});
