import { thumbnailUrl, withMember } from './list-thumbnails';

describe('list thumbnails', () => {
  it('ask for the 128-pixel rendition of a signed or unsigned content URL', () => {
    expect(thumbnailUrl('http://h/api/projects/p/assets/a/content')).toBe(
      'http://h/api/projects/p/assets/a/content?size=128',
    );
    expect(
      thumbnailUrl(
        'http://h/api/projects/p/assets/a/content?expires=9&signature=s',
      ),
    ).toBe(
      'http://h/api/projects/p/assets/a/content?expires=9&signature=s&size=128',
    );
  });

  it('append a member to rendered JSON as JSON.stringify would write it', () => {
    const item = { id: 'x', nested: { a: [1, '}'] } };
    expect(
      JSON.parse(withMember(JSON.stringify(item), 'logoThumbnailUrl', 'u"1')),
    ).toEqual({ ...item, logoThumbnailUrl: 'u"1' });
    expect(withMember('{}', 'logoThumbnailUrl', null)).toBe(
      '{"logoThumbnailUrl":null}',
    );
  });
});
