import { LOGO_PLACEHOLDER } from './landing-page';
import { FIX_MAX_FINDINGS, landingPageFixMessages } from './landing-page-fix';

describe('landingPageFixMessages', () => {
  const page = '<!doctype html><html><body><img src="logo.png"></body></html>';

  it('sends the product, the errors and warnings (not notes) and the page, asking for the whole page', () => {
    const [system, user] = landingPageFixMessages(
      { name: 'Quiet Harbor', description: 'Boats.' },
      page,
      [
        {
          rule: 'image-alt',
          severity: 'error',
          message: 'No alt',
          selector: 'img',
        },
        {
          rule: 'meta-description',
          severity: 'warning',
          message: 'No description',
        },
        { rule: 'region', severity: 'info', message: 'A note' },
      ],
      true,
    );
    expect(system.role).toBe('system');
    expect(system.content).toContain('complete corrected page');
    expect(system.content).toContain(`<img src="${LOGO_PLACEHOLDER}"`);
    const lines = user.content.split('\n');
    expect(lines.slice(0, 2)).toEqual([
      'Name: Quiet Harbor',
      'Description: Boats.',
    ]);
    expect(lines).toContain('- [error] image-alt at img: No alt');
    expect(lines).toContain('- [warning] meta-description: No description');
    expect(user.content).not.toContain('A note');
    expect(user.content.endsWith(`The page:\n${page}`)).toBe(true);
  });

  it(`lists at most ${FIX_MAX_FINDINGS} findings, and a text logo when there is none`, () => {
    const findings = Array.from({ length: 80 }, (_, i) => ({
      rule: `r${i}`,
      severity: 'error',
      message: 'm',
    }));
    const [system, user] = landingPageFixMessages(
      { name: 'X', description: null },
      page,
      findings,
      false,
    );
    expect(user.content.match(/^- \[error\]/gm)).toHaveLength(FIX_MAX_FINDINGS);
    expect(system.content).toContain('There is no logo');
  });
});
