import { parseEntityTags } from '../common/http/entity-tags';
import {
  acceptedVersions,
  isUnchanged,
  projectETag,
  readIfNoneMatch,
} from './project-version';

describe('project versions as ETags', () => {
  it('writes the version as a strong entity-tag', () => {
    expect(projectETag(3)).toBe('"3"');
  });

  it('If-Match accepts the versions its strong tags name, and none of its weak or odd ones', () => {
    expect(
      acceptedVersions(parseEntityTags('"3", W/"4", "x", "0", "3", "12"')!),
    ).toEqual([3, 12]);
    expect(acceptedVersions('*')).toBe('*');
  });

  it('If-None-Match holds a copy as current when any tag names the version, weak or strong', () => {
    expect(isUnchanged(readIfNoneMatch('W/"2"'), 2)).toBe(true);
    expect(isUnchanged(readIfNoneMatch('"1"'), 2)).toBe(false);
    expect(isUnchanged(undefined, 2)).toBe(false);
  });

  it('with signed asset URLs a GET tags the version and their expiry, and only that pair is current', () => {
    expect(projectETag(3, 1795000800)).toBe('"3.1795000800"');
    expect(isUnchanged(readIfNoneMatch('"3.1795000800"'), 3, 1795000800)).toBe(
      true,
    );
    // The same version with URLs that expire earlier is not the current answer.
    expect(isUnchanged(readIfNoneMatch('"3.1795000200"'), 3, 1795000800)).toBe(
      false,
    );
    expect(isUnchanged(readIfNoneMatch('"3"'), 3, 1795000800)).toBe(false);
  });

  it('If-Match takes the version part of a tag that carries URL expiry', () => {
    expect(acceptedVersions(parseEntityTags('"3.1795000800"')!)).toEqual([3]);
  });
});
