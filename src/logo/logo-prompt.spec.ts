import type { GenerateLogoDto } from './dto/generate-logo.dto';
import { buildLogoPrompt } from './logo-prompt';

const required: GenerateLogoDto = {
  projectId: 'project-1',
  companyName: 'Acme Rockets',
  style: 'minimalist',
  colors: ['navy'],
};

const prompt = (extra: Partial<GenerateLogoDto> = {}) =>
  buildLogoPrompt({ ...required, ...extra });

describe('buildLogoPrompt', () => {
  it('names the company', () => {
    expect(prompt()).toContain('"Acme Rockets"');
  });

  it('names the style', () => {
    expect(prompt({ style: 'geometric' })).toContain('geometric');
    expect(prompt({ style: 'geometric' })).not.toContain('minimalist');
  });

  it('lists a single color as given', () => {
    expect(prompt({ colors: ['#ff0000'] })).toContain('#ff0000');
  });

  it('joins the colors with ", " in the given order', () => {
    expect(prompt({ colors: ['navy', 'gold', '#ffffff'] })).toContain(
      'navy, gold, #ffffff',
    );
  });

  it('mentions the industry when it is given', () => {
    const text = prompt({ industry: 'aerospace' });
    expect(text).toContain('aerospace');
    expect(text).toMatch(/industry/i);
  });

  it('has no industry sentence when industry is not given', () => {
    expect(prompt()).not.toMatch(/industry/i);
  });

  it('has no industry sentence when industry is blank', () => {
    expect(prompt({ industry: '' })).not.toMatch(/industry/i);
    expect(prompt({ industry: '   ' })).not.toMatch(/industry/i);
  });

  it('joins the mood words with ", " when mood is given', () => {
    const text = prompt({ mood: ['bold', 'friendly', 'calm'] });
    expect(text).toContain('bold, friendly, calm');
    expect(text).toMatch(/mood/i);
  });

  it('has no mood sentence when mood is not given', () => {
    expect(prompt()).not.toMatch(/mood/i);
  });

  it('has no mood sentence when mood is an empty list', () => {
    expect(prompt({ mood: [] })).not.toMatch(/mood/i);
  });

  it('includes the description when it is given', () => {
    const description = 'We build reusable rockets for small satellites';
    expect(prompt({ description })).toContain(description);
  });

  it('has no description sentence when description is not given', () => {
    expect(prompt()).not.toMatch(/about the company/i);
  });

  it('has no description sentence when description is blank', () => {
    expect(prompt({ description: '' })).toBe(prompt());
    expect(prompt({ description: ' \n ' })).toBe(prompt());
  });

  it('with only the required fields is exactly the company, style, colors and the fixed quality request', () => {
    const blanks = prompt({
      industry: ' ',
      mood: [],
      description: '',
    });
    expect(blanks).toBe(prompt());
    expect(prompt()).not.toMatch(/industry|mood|about the company/i);
  });

  it('includes every optional part when all are given', () => {
    const text = prompt({
      industry: 'aerospace',
      mood: ['bold', 'calm'],
      description: 'Reusable rockets',
    });
    expect(text).toContain('aerospace');
    expect(text).toContain('bold, calm');
    expect(text).toContain('Reusable rockets');
  });

  it('asks for a clean, scalable, memorable logo on a transparent or white background, centered', () => {
    const text = prompt();
    for (const word of [
      'clean',
      'scalable',
      'memorable',
      'transparent or white background',
      'centered',
    ]) {
      expect(text).toContain(word);
    }
  });

  it('never contains "undefined" or "null"', () => {
    const variants = [
      prompt(),
      prompt({ industry: undefined, mood: undefined, description: undefined }),
      prompt({ industry: '', mood: [], description: '' }),
      prompt({ industry: 'x', mood: ['y'], description: 'z' }),
    ];
    for (const text of variants) {
      expect(text).not.toMatch(/undefined|null/);
    }
  });

  it('does not end a sentence with nothing', () => {
    const text = prompt({ industry: '', mood: [], description: '' });
    expect(text).not.toMatch(/:\s*\./);
    expect(text).not.toMatch(/\s{2,}/);
    expect(text).not.toMatch(/\.\s*\./);
  });
});
