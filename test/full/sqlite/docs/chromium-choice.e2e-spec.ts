import { DEBIAN_CHROMIUM, findChromium } from '../../../support/chromium';

/** Which Chromium the Swagger UI browser test launches. */

const PACKAGED = '/tmp/chromium';

function sources(env: Record<string, string>, present: string[]) {
  return {
    env,
    exists: (path: string) => present.includes(path),
    packaged: () => Promise.resolve(PACKAGED),
  };
}

describe('the browser test finds Chromium', () => {
  it('uses CHROMIUM_PATH first, even when Debian has one', async () => {
    const choice = await findChromium(
      sources({ CHROMIUM_PATH: '/opt/chrome' }, [
        '/opt/chrome',
        DEBIAN_CHROMIUM,
      ]),
    );
    expect(choice).toEqual({
      executablePath: '/opt/chrome',
      source: 'CHROMIUM_PATH',
    });
  });

  it('fails, naming it, when CHROMIUM_PATH does not exist', async () => {
    await expect(
      findChromium(
        sources({ CHROMIUM_PATH: '/opt/nothing' }, [DEBIAN_CHROMIUM]),
      ),
    ).rejects.toThrow('CHROMIUM_PATH=/opt/nothing does not exist');
  });

  it("uses Debian's /usr/bin/chromium when there is no CHROMIUM_PATH", async () => {
    const choice = await findChromium(sources({}, [DEBIAN_CHROMIUM]));
    expect(choice.executablePath).toBe(DEBIAN_CHROMIUM);
  });

  it('falls back to the Chromium inside the npm package', async () => {
    const choice = await findChromium(sources({}, []));
    expect(choice).toEqual({
      executablePath: PACKAGED,
      source: 'the @sparticuz/chromium package',
    });
  });
});
