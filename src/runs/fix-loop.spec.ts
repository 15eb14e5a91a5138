import { afterSiteCheck } from './fix-loop';

const rule = { maxFixes: 2, force: false };

describe('after a site check', () => {
  it('publishes a page the check found no errors in, whatever fixes it took', () => {
    expect(afterSiteCheck([0], rule)).toBe('publish');
    expect(afterSiteCheck([3, 0], rule)).toBe('publish');
    expect(afterSiteCheck([5, 2, 0], rule)).toBe('publish');
  });

  it('fixes while fixes are left and the errors shrink', () => {
    expect(afterSiteCheck([4], rule)).toBe('fix');
    expect(afterSiteCheck([4, 2], rule)).toBe('fix');
  });

  it('stops after the last fix, or as soon as a fix did not shrink the errors', () => {
    expect(afterSiteCheck([4, 2, 1], rule)).toBe('stop');
    expect(afterSiteCheck([4, 4], rule)).toBe('stop');
    expect(afterSiteCheck([2, 3], rule)).toBe('stop');
  });

  it('makes no fix when none is allowed', () => {
    expect(afterSiteCheck([1], { maxFixes: 0, force: false })).toBe('stop');
  });

  it('publishes anyway when forced, instead of stopping', () => {
    expect(afterSiteCheck([4, 4], { ...rule, force: true })).toBe(
      'publish-forced',
    );
    expect(afterSiteCheck([4], { ...rule, force: true })).toBe('fix');
  });

  it('needs a check to decide after', () => {
    expect(() => afterSiteCheck([], rule)).toThrow();
  });
});
