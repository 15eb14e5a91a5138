import { SLICE_MS } from '../../common/concurrency/request-work-slice';

/**
 * JSON.parse in slices: the same value as JSON.parse for the same text,
 * built a slice at a time, with a turn of the event loop after every
 * SLICE_MS of work. A native JSON.parse of a 1 MB body of 100,000 keys or
 * nested arrays holds the event loop for 40-80 ms on a small machine, and
 * every other request of the instance waits that long; parsed here, no
 * request body holds it for more than a few milliseconds at a time.
 *
 * It only decides whether the text is JSON and builds the value; when it is
 * not JSON, it says where, and the caller takes the error message from
 * JSON.parse itself (see json-body.guard.ts), so clients read exactly
 * the message they always have.
 */

/** How many values are built between two looks at the clock. */
const VALUES_PER_CHECK = 512;

/** The text is not JSON; `position` is where parsing stopped. */
export class NotJsonError extends Error {
  constructor(readonly position: number) {
    super(`Not JSON at position ${position}`);
  }
}

const yieldToEventLoop = () =>
  new Promise<void>((resolve) => setImmediate(resolve));

type Container = unknown[] | Record<string, unknown>;

interface Frame {
  container: Container;
  /** The key the next value goes under (objects only). */
  key: string | undefined;
}

/** Sets `key` as JSON.parse does: an own property, "__proto__" included. */
function setMember(
  object: Record<string, unknown>,
  key: string,
  value: unknown,
): void {
  if (key === '__proto__') {
    Object.defineProperty(object, key, {
      value,
      writable: true,
      enumerable: true,
      configurable: true,
    });
  } else {
    object[key] = value;
  }
}

const isWhitespace = (code: number) =>
  code === 0x20 || code === 0x0a || code === 0x0d || code === 0x09;
const isDigit = (code: number) => code >= 0x30 && code <= 0x39;

/** The value of a hexadecimal digit, or -1. */
function hexValue(code: number): number {
  if (code >= 0x30 && code <= 0x39) return code - 0x30;
  if (code >= 0x41 && code <= 0x46) return code - 0x37;
  if (code >= 0x61 && code <= 0x66) return code - 0x57;
  return -1;
}

const ESCAPES: Record<number, string> = {
  0x22: '"',
  0x5c: '\\',
  0x2f: '/',
  0x62: '\b',
  0x66: '\f',
  0x6e: '\n',
  0x72: '\r',
  0x74: '\t',
};

/** Stand-ins for containers when only the syntax is checked (never filled). */
const UNBUILT_ARRAY: unknown[] = [];
const UNBUILT_OBJECT: Record<string, unknown> = {};

/**
 * Checks that `text` is JSON, in slices, without building its value: what
 * JSON.parse would refuse throws the same NotJsonError as
 * parseJsonInSlices, and nothing but short strings is allocated. A large
 * body that is not JSON (a flood of them, say) then costs no heap: building
 * a megabyte array only to drop it made the heap grow by 130 MB under ten
 * such clients.
 */
export async function checkJsonInSlices(text: string): Promise<void> {
  await walkJson(text, false);
}

export async function parseJsonInSlices(text: string): Promise<unknown> {
  return walkJson(text, true);
}

// Long on purpose: one state machine over the text, its states sharing the
// loop's locals; split into functions, every character would pay a call.
async function walkJson(text: string, build: boolean): Promise<unknown> {
  let at = 0;
  const length = text.length;
  const stack: Frame[] = [];
  let sliceStart = performance.now();
  let sinceCheck = 0;

  const fail = (position = at): never => {
    throw new NotJsonError(position);
  };
  const skipWhitespace = () => {
    while (at < length && isWhitespace(text.charCodeAt(at))) at++;
  };

  const readString = (): string => {
    // `at` is on the opening quote.
    at++;
    let result = '';
    let chunkStart = at;
    for (;;) {
      if (at >= length) fail();
      const code = text.charCodeAt(at);
      if (code === 0x22) {
        result += text.slice(chunkStart, at);
        at++;
        return result;
      }
      if (code < 0x20) fail();
      if (code !== 0x5c) {
        at++;
        continue;
      }
      result += text.slice(chunkStart, at);
      const escape = text.charCodeAt(at + 1);
      if (escape === 0x75) {
        let unit = 0;
        for (let i = at + 2; i < at + 6; i++) {
          const digit = hexValue(text.charCodeAt(i));
          if (digit < 0) fail(i);
          unit = unit * 16 + digit;
        }
        result += String.fromCharCode(unit);
        at += 6;
      } else {
        const decoded = ESCAPES[escape];
        if (decoded === undefined) fail();
        result += decoded;
        at += 2;
      }
      chunkStart = at;
    }
  };

  const readNumber = (): number => {
    const start = at;
    if (text.charCodeAt(at) === 0x2d) at++;
    const first = text.charCodeAt(at);
    if (first === 0x30) {
      at++;
    } else if (isDigit(first)) {
      while (isDigit(text.charCodeAt(at))) at++;
    } else {
      fail();
    }
    if (text.charCodeAt(at) === 0x2e) {
      at++;
      if (!isDigit(text.charCodeAt(at))) fail();
      while (isDigit(text.charCodeAt(at))) at++;
    }
    const e = text.charCodeAt(at);
    if (e === 0x65 || e === 0x45) {
      at++;
      const sign = text.charCodeAt(at);
      if (sign === 0x2b || sign === 0x2d) at++;
      if (!isDigit(text.charCodeAt(at))) fail();
      while (isDigit(text.charCodeAt(at))) at++;
    }
    return build ? Number(text.slice(start, at)) : 0;
  };

  const readLiteral = (word: string, value: unknown): unknown => {
    if (text.startsWith(word, at)) {
      at += word.length;
      return value;
    }
    return fail();
  };

  /**
   * A value starts at `at`: a scalar is returned; an opened container is
   * pushed on the stack and returned too (its members follow).
   */
  const readValue = (): unknown => {
    skipWhitespace();
    const code = text.charCodeAt(at);
    switch (code) {
      case 0x7b: {
        at++;
        const object: Record<string, unknown> = build ? {} : UNBUILT_OBJECT;
        stack.push({ container: object, key: undefined });
        return object;
      }
      case 0x5b: {
        at++;
        const array: unknown[] = build ? [] : UNBUILT_ARRAY;
        stack.push({ container: array, key: undefined });
        return array;
      }
      case 0x22:
        return readString();
      case 0x74:
        return readLiteral('true', true);
      case 0x66:
        return readLiteral('false', false);
      case 0x6e:
        return readLiteral('null', null);
      default:
        return readNumber();
    }
  };

  /** Reads an object's next key (after `{` or `,`), or fails. */
  const readKey = (frame: Frame) => {
    skipWhitespace();
    if (text.charCodeAt(at) !== 0x22) fail();
    frame.key = readString();
    skipWhitespace();
    if (text.charCodeAt(at) !== 0x3a) fail();
    at++;
  };

  const root = readValue();
  // The container a value was just read into, or the start of a new one.
  let opened = stack.length > 0;
  while (stack.length > 0) {
    if (++sinceCheck >= VALUES_PER_CHECK) {
      sinceCheck = 0;
      if (performance.now() - sliceStart >= SLICE_MS) {
        await yieldToEventLoop();
        sliceStart = performance.now();
      }
    }
    const frame = stack[stack.length - 1];
    const isArray = Array.isArray(frame.container);
    skipWhitespace();
    const code = text.charCodeAt(at);
    if (opened) {
      opened = false;
      // Right after `{` or `[`: empty, or the first member.
      if (code === (isArray ? 0x5d : 0x7d)) {
        at++;
        stack.pop();
        continue;
      }
      if (!isArray) readKey(frame);
    } else if (code === 0x2c) {
      at++;
      if (!isArray) readKey(frame);
    } else if (code === (isArray ? 0x5d : 0x7d)) {
      at++;
      stack.pop();
      continue;
    } else {
      fail();
    }
    const depth = stack.length;
    const value = readValue();
    if (!build) {
      // Only the syntax is checked: nothing to keep.
    } else if (isArray) {
      (frame.container as unknown[]).push(value);
    } else {
      setMember(
        frame.container as Record<string, unknown>,
        frame.key as string,
        value,
      );
    }
    opened = stack.length > depth;
  }
  skipWhitespace();
  if (at < length) fail();
  return root;
}
