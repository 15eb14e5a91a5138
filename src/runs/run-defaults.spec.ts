import { lucideIcon } from '../icons/lucide-icons';
import {
  RUN_ICON_NAMES,
  RUN_LOGO_COLORS,
  withRunDefaults,
} from './run-defaults';

describe('run defaults', () => {
  it("fills a logo's company name from the project, its style and the neutral palette", () => {
    expect(withRunDefaults('logo', {}, 'Harbor Lights')).toEqual({
      companyName: 'Harbor Lights',
      style: 'modern',
      colors: RUN_LOGO_COLORS,
    });
  });

  it('gives an icon set without names the common icons, and keeps names given', () => {
    expect(withRunDefaults('icon-set', {}, 'Acme')).toEqual({
      names: RUN_ICON_NAMES,
    });
    expect(
      withRunDefaults('icon-set', { names: ['house'], style: 'solid' }, 'Acme'),
    ).toEqual({ names: ['house'], style: 'solid' });
  });

  it('draws every default icon from Lucide, so the default set calls no model', async () => {
    for (const name of RUN_ICON_NAMES) {
      expect({ name, found: (await lucideIcon(name)) !== undefined }).toEqual({
        name,
        found: true,
      });
    }
  });

  it('takes any other step input as given', () => {
    expect(withRunDefaults('graphics', { headline: 'Hi' }, 'Acme')).toEqual({
      headline: 'Hi',
    });
  });
});
