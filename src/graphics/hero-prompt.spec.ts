import { heroPrompt } from './hero-prompt';

describe('the hero prompt', () => {
  it('asks for the brand colours and for no text or logo in the picture', () => {
    const prompt = heroPrompt(['#0044ff', '#ffd700'], true);
    expect(prompt).toContain('#0044ff, #ffd700');
    expect(prompt).toMatch(/style reference/);
    expect(prompt).toMatch(/Do not include any text, letters.*logos/);
  });

  it('does not mention an attached logo when there is none', () => {
    expect(heroPrompt(['#1e293b'], false)).not.toMatch(/attached/);
  });
});
