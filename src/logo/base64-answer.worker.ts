/**
 * The worker thread that reads base64 answers of the image API (see
 * Base64AnswerDecoder): the answer's chunks joined, the bytes to text, the
 * text to JSON, the image field to bytes. A 20 MB image is 27 MB of
 * base64, and each of those steps held the event loop for tens of
 * milliseconds when they ran on the main thread (over 100 ms together);
 * here they hold nothing but this thread, one answer at a time, so only
 * one answer's copies exist at once.
 *
 * It imports nothing but Node's own modules, so the same file runs built
 * (dist/) and as TypeScript (Node strips its types when tests run the
 * sources).
 */
import { isMarkedAsUntransferable, parentPort } from 'node:worker_threads';

/**
 * What the main thread sends: the answer's bytes as they arrive (chunks
 * transferred, not copied), then its end, or that it was abandoned.
 */
export type AnswerMessage =
  | { type: 'chunks'; id: number; chunks: ArrayBuffer[] }
  | {
      type: 'end';
      id: number;
      /** Decode the image (a 2xx answer); otherwise only the JSON is wanted. */
      decode: boolean;
      maxBytes: number;
    }
  | { type: 'drop'; id: number };

/** What became of the answer's image. */
export type ImageOutcome =
  | { kind: 'bytes'; bytes: ArrayBuffer; length: number }
  | { kind: 'missing' }
  | { kind: 'too_large' };

/** The answer's JSON without its image text (null: not JSON), and the image. */
export interface ReadAnswer {
  id: number;
  body: unknown;
  image: ImageOutcome;
}

/** The base64 text of `bytes` bytes. */
const base64Length = (bytes: number) => Math.ceil(bytes / 3) * 4;

/** `data[0]`, the object that holds the image of `{ data: [{ b64_json }] }`. */
function firstItem(body: unknown): Record<string, unknown> | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  const data = (body as { data?: unknown }).data;
  if (!Array.isArray(data) || data.length === 0) return undefined;
  const first: unknown = data[0];
  return typeof first === 'object' && first !== null
    ? (first as Record<string, unknown>)
    : undefined;
}

function decodeImage(text: unknown, maxBytes: number): ImageOutcome {
  if (typeof text !== 'string' || text === '') return { kind: 'missing' };
  // Checked on the text before anything is decoded; line breaks some
  // encoders add are not counted against the limit.
  if (text.length > base64Length(maxBytes) + Math.ceil(text.length / 64) * 2) {
    return { kind: 'too_large' };
  }
  const bytes = Buffer.from(text, 'base64');
  if (bytes.length > maxBytes) return { kind: 'too_large' };
  // A decoded image this large has a buffer of its own (perhaps longer
  // than the image: `length` says how much of it is the image).
  const own =
    bytes.byteOffset === 0 && !isMarkedAsUntransferable(bytes.buffer)
      ? bytes.buffer
      : new Uint8Array(bytes).buffer;
  return { kind: 'bytes', bytes: own, length: bytes.length };
}

/** The answer's JSON (its image text taken out) and its image. */
export function readAnswer(
  id: number,
  bytes: Buffer,
  decode: boolean,
  maxBytes: number,
): ReadAnswer {
  let body: unknown = null;
  try {
    body = JSON.parse(bytes.toString('utf8')) as unknown;
  } catch {
    // Not JSON: it has neither an image nor an error message to read.
  }
  const item = firstItem(body);
  const text = item?.b64_json;
  // The image text never travels back: only what else the answer says.
  if (item) delete item.b64_json;
  const image: ImageOutcome = decode
    ? decodeImage(text, maxBytes)
    : { kind: 'missing' };
  return { id, body, image };
}

/** The chunks of each answer still arriving, by id. */
const arriving = new Map<number, Buffer[]>();

parentPort?.on('message', (message: AnswerMessage) => {
  if (message.type === 'chunks') {
    const chunks = arriving.get(message.id) ?? [];
    for (const chunk of message.chunks) chunks.push(Buffer.from(chunk));
    arriving.set(message.id, chunks);
    return;
  }
  const chunks = arriving.get(message.id) ?? [];
  arriving.delete(message.id);
  if (message.type === 'drop') return;
  const answer = readAnswer(
    message.id,
    Buffer.concat(chunks),
    message.decode,
    message.maxBytes,
  );
  parentPort?.postMessage(
    answer,
    answer.image.kind === 'bytes' ? [answer.image.bytes] : [],
  );
});
