import { jsonArrayText, jsonObjectText } from './json-text';

describe('JSON text assembly', () => {
  it('embeds member values verbatim, keys quoted, in the order given', () => {
    const text = jsonObjectText({ project: '{"id":"a","n":[1,2]}', b: '"x"' });
    expect(text).toBe('{"project":{"id":"a","n":[1,2]},"b":"x"}');
    expect(JSON.parse(text)).toEqual({
      project: { id: 'a', n: [1, 2] },
      b: 'x',
    });
  });

  it('leaves out members whose value is undefined', () => {
    expect(jsonObjectText({ projects: '[]', nextCursor: undefined })).toBe(
      '{"projects":[]}',
    );
  });

  it('joins array items that are JSON text, and renders [] when empty', () => {
    expect(jsonArrayText(['{"a":1}', 'null'])).toBe('[{"a":1},null]');
    expect(jsonArrayText([])).toBe('[]');
  });
});
