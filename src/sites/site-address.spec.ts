import { readSiteAddress } from './site-address';

const ID = '019aa8f2-5f1c-7c3e-9a51-3c1f5d0b8e20';

describe('readSiteAddress', () => {
  it('reads the current and versioned addresses; an empty name is index.html', () => {
    expect(readSiteAddress(`/${ID}/`)).toEqual({
      kind: 'file',
      projectId: ID,
      version: 'current',
      path: 'index.html',
    });
    expect(readSiteAddress(`/${ID}/og.png?x=1`)).toMatchObject({
      version: 'current',
      path: 'og.png',
    });
    expect(readSiteAddress(`/${ID}/v12/favicon.ico`)).toMatchObject({
      version: 12,
      path: 'favicon.ico',
    });
    expect(readSiteAddress(`/${ID}/v3/`)).toMatchObject({
      version: 3,
      path: 'index.html',
    });
  });

  it('sends a folder without its slash to the one with it', () => {
    expect(readSiteAddress(`/${ID}`)).toEqual({
      kind: 'slash',
      location: `/${ID}/`,
    });
    expect(readSiteAddress(`/${ID}/v2`)).toEqual({
      kind: 'slash',
      location: `/${ID}/v2/`,
    });
  });

  it.each([
    '/',
    '',
    '/not-a-uuid/',
    `/${ID.toUpperCase()}/`,
    `/${ID}/../x`,
    `/${ID}/%2e%2e/index.html`,
    `/${ID}/logo.png`,
    `/${ID}/v0/`,
    `/${ID}/v01/`,
    `/${ID}/v1234567890/`,
    `/${ID}/v1/a/index.html`,
    `/${ID}/index.html/`,
    `//${ID}/`,
    `/${ID}/${'a'.repeat(200)}`,
  ])('%s is no site address', (target) => {
    expect(readSiteAddress(target)).toBeUndefined();
  });
});
