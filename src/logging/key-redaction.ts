/**
 * Every form in which an upstream (or a stack, or a proxy) could echo the
 * image-API key, and the function that replaces them with `[redacted]`:
 *
 * - the key itself, base64 and base64url (padded or not) and URL-encoded;
 * - a masked key, as providers print it in an error: a run of mask
 *   characters (`***`, `...`, `…`, `•••`) with the key's first characters
 *   before it (at least 3, such as `sk-`) or its last ones after it (at
 *   least 4, such as `…abcd`). A masked form shows part of the key, and
 *   which key of several a deployment uses; it is not shown either.
 */
const REDACTED = '[redacted]';

/** A run of characters providers mask a key with. */
const MASK_RUN = /\*{2,}|\.{3,}|…+|•{2,}|x{6,}/;
/** A token that holds a mask run, with what surrounds it. */
const MASKED_TOKEN =
  /[A-Za-z0-9_+/=%-]*(?:\*{2,}|\.{3,}|…+|•{2,}|x{6,})[A-Za-z0-9_+/=%*.…•-]*/g;
const MIN_PREFIX = 3;
const MIN_SUFFIX = 4;

export type Redactor = (text: string) => string;

const cache = new Map<string, Redactor>();

/** The literal forms of `key` an answer could hold, longest first. */
export function keyForms(key: string): string[] {
  const base64 = Buffer.from(key, 'utf8').toString('base64');
  const base64url = Buffer.from(key, 'utf8').toString('base64url');
  const forms = new Set([
    key,
    base64,
    base64.replace(/=+$/, ''),
    base64url,
    encodeURIComponent(key),
    encodeURIComponent(key).replace(/%[0-9A-F]{2}/g, (e) => e.toLowerCase()),
  ]);
  return [...forms]
    .filter((form) => form.length > 0)
    .sort((a, b) => b.length - a.length);
}

/** A function removing every form of `key` from a text (see above). */
export function keyRedactor(key: string | undefined): Redactor {
  if (!key) return (text) => text;
  const known = cache.get(key);
  if (known) return known;
  const forms = keyForms(key);
  const redactor: Redactor = (text) => {
    let out = text;
    for (const form of forms) {
      if (out.includes(form)) out = out.split(form).join(REDACTED);
    }
    if (!MASK_RUN.test(out)) return out;
    return out.replace(MASKED_TOKEN, (token) =>
      isMaskedKey(token, key) ? REDACTED : token,
    );
  };
  cache.set(key, redactor);
  return redactor;
}

function isMaskedKey(token: string, key: string): boolean {
  const runs = [...token.matchAll(new RegExp(MASK_RUN.source, 'g'))];
  const first = runs[0];
  const last = runs[runs.length - 1];
  if (!first || !last) return false;
  const head = token.slice(0, first.index);
  // Sentence punctuation after the token is not part of it.
  const tail = token
    .slice((last.index ?? 0) + last[0].length)
    .replace(/[.,;:]+$/, '');
  return (
    (head.length >= MIN_PREFIX && key.startsWith(head)) ||
    (tail.length >= MIN_SUFFIX && key.endsWith(tail))
  );
}
