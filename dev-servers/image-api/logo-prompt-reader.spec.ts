import type { GenerateLogoDto } from '../../src/logo/dto/generate-logo.dto';
import { LOGO_STYLES } from '../../src/logo/logo.constants';
import { buildLogoPrompt } from '../../src/logo/logo-prompt';
import { readLogoPrompt } from './logo-prompt-reader';

const request: GenerateLogoDto = {
  projectId: 'p',
  companyName: 'Acme Rockets',
  style: 'geometric',
  colors: ['#0044ff', 'gold', 'rgb(10, 20, 30)'],
};

describe('readLogoPrompt (the dev image API reading the service prompt)', () => {
  it('reads back company, style and colors from buildLogoPrompt', () => {
    expect(readLogoPrompt(buildLogoPrompt(request))).toEqual({
      companyName: 'Acme Rockets',
      style: 'geometric',
      colors: ['#0044ff', 'gold', 'rgb(10, 20, 30)'],
    });
  });

  it('reads them back whatever optional parts follow', () => {
    const prompt = buildLogoPrompt({
      ...request,
      industry: 'aerospace',
      mood: ['bold', 'calm'],
      description: 'Reusable rockets. Use these colors: red.',
    });
    expect(readLogoPrompt(prompt)).toEqual({
      companyName: 'Acme Rockets',
      style: 'geometric',
      colors: ['#0044ff', 'gold', 'rgb(10, 20, 30)'],
    });
  });

  it.each(LOGO_STYLES)('reads the style %s', (style) => {
    expect(readLogoPrompt(buildLogoPrompt({ ...request, style })).style).toBe(
      style,
    );
  });

  it('keeps quotes and punctuation of the company name', () => {
    const companyName = 'Bob "The Builder" & Sons. Ltd';
    expect(
      readLogoPrompt(buildLogoPrompt({ ...request, companyName })).companyName,
    ).toBe(companyName);
  });

  it('still reads something from a prompt it did not make', () => {
    expect(readLogoPrompt('A fox jumping over a moon')).toEqual({
      companyName: 'A fox jumping',
      style: 'modern',
      colors: [],
    });
  });
});
