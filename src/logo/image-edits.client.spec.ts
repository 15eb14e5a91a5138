import { logoConfig } from './logo.config';
import type { ImageApiClient } from './image-api.client';
import { encodeEditForm, ImageEditsClient } from './image-edits.client';

const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2]);
const JPEG = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0x10, 0x4a, 0x46]);

/** The form as a multipart parser reads it back. */
async function readBack(body: Buffer, contentType: string) {
  return new Response(new Uint8Array(body), {
    headers: { 'content-type': contentType },
  }).formData();
}

describe('encodeEditForm', () => {
  it('holds every field as text and the image as a file part named logo.png of its type and bytes', async () => {
    const form = await encodeEditForm(
      { model: 'gpt-image-1.5', prompt: 'Rounder', n: '1' },
      { bytes: PNG, type: { mediaType: 'image/png', extension: 'png' } },
    );
    expect(form.contentType).toMatch(/^multipart\/form-data; boundary=\S+$/);
    const read = await readBack(form.body, form.contentType);
    expect(read.get('model')).toBe('gpt-image-1.5');
    expect(read.get('prompt')).toBe('Rounder');
    expect(read.get('n')).toBe('1');
    const image = read.get('image') as File;
    expect(image.name).toBe('logo.png');
    expect(image.type).toBe('image/png');
    expect(Buffer.from(await image.arrayBuffer()).equals(PNG)).toBe(true);
  });

  it('names a JPEG logo.jpg with its own type', async () => {
    const form = await encodeEditForm(
      { prompt: 'Darker' },
      { bytes: JPEG, type: { mediaType: 'image/jpeg', extension: 'jpg' } },
    );
    const image = (await readBack(form.body, form.contentType)).get(
      'image',
    ) as File;
    expect(image.name).toBe('logo.jpg');
    expect(image.type).toBe('image/jpeg');
  });
});

describe('ImageEditsClient.form', () => {
  const client = new ImageEditsClient(
    {} as ImageApiClient,
    logoConfig({
      IMAGE_API_KEY: 'sk-test',
      IMAGE_MODEL: 'gpt-image-2',
    }),
  );
  const source = {
    bytes: PNG,
    type: { mediaType: 'image/png' as const, extension: 'png' as const },
  };

  it('asks for the size given (a graphic’s), else the logo’s 1024x1024', async () => {
    const sized = await client.form(source, 'Hero', '1920x1088');
    expect((await readBack(sized.body, sized.contentType)).get('size')).toBe(
      '1920x1088',
    );
    const plain = await client.form(source, 'Rounder');
    expect((await readBack(plain.body, plain.contentType)).get('size')).toBe(
      '1024x1024',
    );
  });
});
