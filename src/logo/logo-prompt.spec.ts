import { buildLogoPrompt } from './logo-prompt';

describe('buildLogoPrompt', () => {
  it('names the company', () => {
    expect(buildLogoPrompt({ projectId: 'p', companyName: 'Acme', style: 'modern', colors: ['red'] })).toContain('"Acme"');
  });
});
