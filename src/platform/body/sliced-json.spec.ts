import * as fc from 'fast-check';
import { jsonErrorMessage, NATIVE_PARSE_MAX_CHARS } from './json-error-message';
import {
  checkJsonInSlices,
  NotJsonError,
  parseJsonInSlices,
} from './sliced-json';

/** What JSON.parse makes of `text`: its value, or that it refused it. */
function native(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch {
    return { ok: false };
  }
}

async function sliced(
  text: string,
): Promise<{ ok: true; value: unknown } | { ok: false }> {
  try {
    return { ok: true, value: await parseJsonInSlices(text) };
  } catch (error) {
    if (!(error instanceof NotJsonError)) throw error;
    return { ok: false };
  }
}

/** JSON text with whitespace wherever JSON allows it. */
const jsonText = fc
  .tuple(fc.jsonValue(), fc.constantFrom('', ' ', '\n\t ', '\r\n'))
  .map(([value, space]) =>
    JSON.stringify(value, null, space === '' ? undefined : space),
  );

/** Near-JSON: JSON text with one character changed, added or removed. */
const nearJson = fc
  .tuple(
    jsonText,
    fc.nat(),
    fc.constantFrom(...'{}[]",:\\-+.eE0 1tfnu\u0000\u00a0x'),
    fc.nat(2),
  )
  .map(([text, at, char, edit]) => {
    const i = text.length === 0 ? 0 : at % text.length;
    if (edit === 0) return text.slice(0, i) + char + text.slice(i + 1);
    if (edit === 1) return text.slice(0, i) + char + text.slice(i);
    return text.slice(0, i) + text.slice(i + 1);
  });

describe('parseJsonInSlices (JSON.parse, a slice at a time)', () => {
  it('builds the same value as JSON.parse for any JSON text', async () => {
    await fc.assert(
      fc.asyncProperty(jsonText, async (text) => {
        expect(await sliced(text)).toEqual(native(text));
      }),
      { numRuns: 500 },
    );
  });

  it('accepts and refuses exactly what JSON.parse does, for texts one edit away from JSON', async () => {
    await fc.assert(
      fc.asyncProperty(nearJson, async (text) => {
        const expected = native(text);
        const actual = await sliced(text);
        expect(actual.ok).toBe(expected.ok);
        if (expected.ok) expect(actual).toEqual(expected);
      }),
      { numRuns: 2_000 },
    );
  });

  it.each([
    ['an empty text', ''],
    ['a BOM before the value', '\ufeff{}'],
    ['a trailing comma', '[1,]'],
    ['a leading zero', '01'],
    ['a lone minus', '-'],
    ['a bare exponent', '1e'],
    ['a fraction without digits', '1.'],
    ['single quotes', "{'a':1}"],
    ['a raw control character in a string', '"a\u0001b"'],
    ['a short unicode escape', '"\\u12"'],
    ['an unknown escape', '"\\x41"'],
    ['a second value', '{} {}'],
    ['an unclosed array', '[[1]'],
  ])('refuses %s, as JSON.parse does', async (_label, text) => {
    expect(native(text).ok).toBe(false);
    expect((await sliced(text)).ok).toBe(false);
  });

  it('keeps "__proto__" as an own property and a lone surrogate as sent, as JSON.parse does', async () => {
    const text = '{"__proto__":{"polluted":1},"s":"\\ud800","d":1,"d":2}';
    const value = (await parseJsonInSlices(text)) as Record<string, unknown>;
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    expect(Object.getOwnPropertyNames(value)).toEqual(['__proto__', 's', 'd']);
    expect(value).toEqual(JSON.parse(text));
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('gives the event loop a turn while it parses a large body', async () => {
    const text = `[${Array.from({ length: 200_000 }, (_, i) => `{"k":${i}}`).join(',')}]`;
    let turns = 0;
    const ticker = setInterval(() => turns++, 0);
    try {
      await parseJsonInSlices(text);
    } finally {
      clearInterval(ticker);
    }
    expect(turns).toBeGreaterThan(0);
  });

  it('nests 100,000 levels without overflowing the stack', async () => {
    const text = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
    let value = (await parseJsonInSlices(text)) as unknown[];
    let depth = 1;
    while (value.length > 0) {
      value = value[0] as unknown[];
      depth++;
    }
    expect(depth).toBe(100_000);
  });
});

describe('jsonErrorMessage', () => {
  const messageOf = (text: string) => {
    try {
      JSON.parse(text);
    } catch (error) {
      return (error as Error).message;
    }
    throw new Error('valid JSON');
  };

  it("is JSON.parse's message, for an error early or late in a large text", async () => {
    const padding = ' '.repeat(NATIVE_PARSE_MAX_CHARS * 2);
    for (const text of [
      `{"a":1,}${padding}`,
      `[${padding}1,}`,
      `"${'x'.repeat(NATIVE_PARSE_MAX_CHARS * 2)}`,
    ]) {
      let position = -1;
      try {
        await parseJsonInSlices(text);
      } catch (error) {
        position = (error as NotJsonError).position;
      }
      expect(position).toBeGreaterThanOrEqual(0);
      expect(await jsonErrorMessage(text, position)).toBe(messageOf(text));
    }
  });
});

/** Where checkJsonInSlices stopped, or 'json' when it accepted the text. */
async function checkedAt(text: string): Promise<number | 'json'> {
  try {
    await checkJsonInSlices(text);
    return 'json';
  } catch (error) {
    if (!(error instanceof NotJsonError)) throw error;
    return error.position;
  }
}

/** Where parseJsonInSlices stopped, or 'json' when it built a value. */
async function parsedAt(text: string): Promise<number | 'json'> {
  try {
    await parseJsonInSlices(text);
    return 'json';
  } catch (error) {
    if (!(error instanceof NotJsonError)) throw error;
    return error.position;
  }
}

describe('checkJsonInSlices (the syntax alone, nothing built)', () => {
  it('accepts and refuses exactly what parseJsonInSlices does, stopping at the same position', async () => {
    await fc.assert(
      fc.asyncProperty(fc.oneof(jsonText, nearJson), async (text) => {
        expect(await checkedAt(text)).toEqual(await parsedAt(text));
      }),
      { numRuns: 1000 },
    );
  });

  it('refuses a megabyte array that stops being JSON at its end, where it stops', async () => {
    const text = `[${'1,'.repeat(490_000)}x]`;
    expect(await checkedAt(text)).toBe(text.length - 2);
  });
});
