import { loadDevTextApiConfiguration } from './dev-text-api.config';
import { HOSTILE_SVG_NAMES, HOSTILE_SVGS } from './hostile-svgs';

describe('the dev text API configuration', () => {
  it('answers hostile SVG to icon requests when TEXT_DEV_REPLY=hostile-svg, aimed at TEXT_DEV_BEACON_URL', () => {
    const config = loadDevTextApiConfiguration({
      TEXT_DEV_REPLY: 'hostile-svg',
      TEXT_DEV_BEACON_URL: 'http://127.0.0.1:4999',
    });
    expect(config).toMatchObject({
      reply: 'hostile-svg',
      beaconUrl: 'http://127.0.0.1:4999',
    });
    expect(loadDevTextApiConfiguration({}).beaconUrl).toBe(
      'http://127.0.0.1:9/beacon',
    );
  });
});

describe('the hostile SVGs', () => {
  it('each reaches for the beacon it is given', () => {
    for (const name of HOSTILE_SVG_NAMES) {
      expect(HOSTILE_SVGS[name]('http://beacon.test')).toContain(
        'http://beacon.test/',
      );
    }
  });
});
