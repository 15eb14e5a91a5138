import { coloursOf } from './prompt-colours';

describe('coloursOf', () => {
  it("takes a logo prompt's #rrggbb colours in order, once each, lowercase", () => {
    expect(
      coloursOf('Use these colors: navy, #0044FF, #ffd700, #0044ff.'),
    ).toEqual(['#0044ff', '#ffd700']);
  });

  it('reads neither named colours nor longer or broken hex', () => {
    expect(coloursOf('Use these colors: navy, white.')).toEqual([]);
    expect(coloursOf('#12345g and #1234567')).toEqual([]);
    expect(coloursOf(null)).toEqual([]);
    expect(coloursOf(undefined)).toEqual([]);
  });
});
