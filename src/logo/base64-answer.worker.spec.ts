import { readAnswer } from './base64-answer.worker';

const answerOf = (value: unknown) => Buffer.from(JSON.stringify(value));
const bytesOf = (answer: ReturnType<typeof readAnswer>) =>
  answer.image.kind === 'bytes'
    ? Buffer.from(answer.image.bytes, 0, answer.image.length)
    : undefined;

describe('readAnswer (the base64 answer worker)', () => {
  const image = Buffer.from('\x89PNG\r\n\x1a\n-some-image-bytes', 'latin1');

  it('decodes the image and sends back the rest of the JSON without its text', () => {
    const answer = readAnswer(
      1,
      answerOf({
        data: [{ b64_json: image.toString('base64'), revised_prompt: 'p' }],
        usage: { input_tokens: 1, output_tokens: 2 },
      }),
      true,
      1024,
    );
    expect(bytesOf(answer)).toEqual(image);
    expect(answer.body).toEqual({
      data: [{ revised_prompt: 'p' }],
      usage: { input_tokens: 1, output_tokens: 2 },
    });
  });

  it('reads base64 with JSON escapes and line breaks as JSON.parse does', () => {
    const text = image.toString('base64').replace(/(.{8})/g, '$1\n');
    const raw = Buffer.from(
      `{"data":[{"b64_json":${JSON.stringify(text).replace(/\//g, '\\/')}}]}`,
    );
    expect(bytesOf(readAnswer(2, raw, true, 1024))).toEqual(image);
  });

  it('refuses an image over the limit on its text, before decoding it', () => {
    const answer = readAnswer(
      3,
      answerOf({ data: [{ b64_json: 'A'.repeat(4000) }] }),
      true,
      1024,
    );
    expect(answer.image).toEqual({ kind: 'too_large' });
  });

  it('reports no image for an answer without one, or that is not JSON', () => {
    expect(readAnswer(4, answerOf({ data: [] }), true, 1024).image).toEqual({
      kind: 'missing',
    });
    const notJson = readAnswer(5, Buffer.from('<html>'), true, 1024);
    expect(notJson).toEqual({ id: 5, body: null, image: { kind: 'missing' } });
  });

  it('does not decode the image of a failed answer, and keeps its error', () => {
    const answer = readAnswer(
      6,
      answerOf({ error: { message: 'busy' } }),
      false,
      1024,
    );
    expect(answer.body).toEqual({ error: { message: 'busy' } });
    expect(answer.image).toEqual({ kind: 'missing' });
  });
});
