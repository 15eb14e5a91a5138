import { apiDocsConfig } from './api-docs.config';

describe('API docs configuration', () => {
  it('describes bearer tokens only with AUTH_MODE=oidc, whatever its case', () => {
    expect(apiDocsConfig({})).toEqual({ bearerAuth: false });
    expect(apiDocsConfig({ AUTH_MODE: 'none' })).toEqual({ bearerAuth: false });
    expect(apiDocsConfig({ AUTH_MODE: ' OIDC ' })).toEqual({
      bearerAuth: true,
    });
  });
});
