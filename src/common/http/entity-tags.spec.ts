import { parseEntityTags, strongMatch, weakMatch } from './entity-tags';

describe('entity-tag lists (If-Match, If-None-Match)', () => {
  it('is undefined when the header is absent', () => {
    expect(parseEntityTags(undefined)).toBeUndefined();
  });

  it('reads * as "any current representation"', () => {
    expect(parseEntityTags(' * ')).toBe('*');
  });

  it('reads a list of strong and weak tags, spaces around commas allowed', () => {
    expect(parseEntityTags('"1", W/"2",  "a-b"')).toEqual([
      { weak: false, opaque: '1' },
      { weak: true, opaque: '2' },
      { weak: false, opaque: 'a-b' },
    ]);
  });

  it('reads a repeated header as one list', () => {
    expect(parseEntityTags(['"1"', '"2"'])).toEqual([
      { weak: false, opaque: '1' },
      { weak: false, opaque: '2' },
    ]);
  });

  it('drops members that are not entity-tags, so they match nothing', () => {
    expect(parseEntityTags('garbage, "unterminated, 1, "ok"')).toEqual([
      { weak: false, opaque: 'ok' },
    ]);
    expect(parseEntityTags('')).toEqual([]);
  });

  it('If-Match compares strongly: a weak tag never matches', () => {
    expect(strongMatch(parseEntityTags('W/"1"')!, '1')).toBe(false);
    expect(strongMatch(parseEntityTags('"2", "1"')!, '1')).toBe(true);
    expect(strongMatch('*', '1')).toBe(true);
  });

  it('If-None-Match compares weakly: a weak tag matches its strong twin', () => {
    expect(weakMatch(parseEntityTags('W/"1"')!, '1')).toBe(true);
    expect(weakMatch(parseEntityTags('"2"')!, '1')).toBe(false);
  });
});
