import { TextApiCallError } from '../text-generation/text-api-call.error';
import { iconMessages, svgOfAnswer } from './icon-drawing';

const SVG = '<svg xmlns="http://www.w3.org/2000/svg"><path d="M1 1h2"/></svg>';

describe('svgOfAnswer', () => {
  it('takes the SVG out of a ```svg fence, or as it is, an XML declaration dropped', () => {
    expect(svgOfAnswer(`\`\`\`svg\n${SVG}\n\`\`\``)).toBe(SVG);
    expect(svgOfAnswer(`  ${SVG}\n`)).toBe(SVG);
    expect(svgOfAnswer(`<?xml version="1.0"?>\n${SVG}`)).toBe(SVG);
    expect(
      svgOfAnswer(`Here is your icon:\n\n\`\`\`svg\n${SVG}\n\`\`\`\nEnjoy!`),
    ).toBe(SVG);
  });

  it('is invalid_answer for anything that is not one SVG document', () => {
    for (const content of [
      'Sure! Here is an icon.',
      '<html></html>',
      `${SVG} and more`,
    ]) {
      expect(() => svgOfAnswer(content)).toThrow(TextApiCallError);
      try {
        svgOfAnswer(content);
      } catch (error) {
        expect((error as TextApiCallError).code).toBe('invalid_answer');
      }
    }
  });
});

describe('iconMessages', () => {
  it('asks for one SVG on the 24 grid, naming the icon, its style and colour', () => {
    const [system, user] = iconMessages('rocket-cart', 'duotone', {
      primary: '#0044ff',
      secondary: '#ff8800',
    });
    expect(system.content).toContain('viewBox="0 0 24 24"');
    expect(user.content).toMatch(/^Icon: rocket-cart$/m);
    expect(user.content).toContain('#0044ff');
  });
});
