import { editAnswer, refuseEdit, type EditCall } from './edits';

const IMAGE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const call = (fields: Record<string, unknown>, image = IMAGE): EditCall => ({
  fields,
  image,
});

describe('the dev image API’s edits', () => {
  it('refuses a call without an image or without a prompt', () => {
    expect(refuseEdit(call({ prompt: 'x' }, Buffer.alloc(0)))).toMatchObject({
      error: { type: 'invalid_request_error', param: 'image' },
    });
    expect(refuseEdit(call({ model: 'gpt-image-1.5' }))).toMatchObject({
      error: { type: 'invalid_request_error', param: 'prompt' },
    });
  });

  it('refuses input_fidelity for a model that does not take it, and takes it for one that does', () => {
    expect(
      refuseEdit(
        call({
          model: 'gpt-image-1-mini',
          prompt: 'x',
          input_fidelity: 'high',
        }),
      ),
    ).toMatchObject({ error: { param: 'input_fidelity' } });
    expect(
      refuseEdit(
        call({ model: 'gpt-image-1.5', prompt: 'x', input_fidelity: 'high' }),
      ),
    ).toBeUndefined();
  });

  it('answers n PNGs unlike the input', () => {
    const answer = editAnswer(
      call({
        model: 'gpt-image-1.5',
        prompt: 'Edit\nRounder mark\nKeep',
        n: '2',
      }),
    ) as { data: { b64_json: string }[] };
    expect(answer.data).toHaveLength(2);
    const png = Buffer.from(answer.data[0].b64_json, 'base64');
    expect(png.subarray(0, 8).equals(IMAGE)).toBe(true);
    expect(png.equals(IMAGE)).toBe(false);
  });

  it('refuses a size the model does not take, as the provider does: gpt-image-2 only multiples of 16 within its limits', () => {
    const sized = (model: string, size: string) =>
      refuseEdit(call({ model, prompt: 'x', size }));
    expect(sized('gpt-image-2', '1920x1088')).toBeUndefined();
    expect(sized('gpt-image-2', '1536x1024')).toBeUndefined();
    for (const size of ['1920x1080', '4096x2048', '3840x960', '512x512']) {
      expect(sized('gpt-image-2', size)).toMatchObject({
        error: { type: 'invalid_request_error', param: 'size' },
      });
    }
    expect(sized('gpt-image-1.5', '1536x1024')).toBeUndefined();
    expect(sized('gpt-image-1.5', '1920x1088')).toMatchObject({
      error: { param: 'size', code: 'invalid_value' },
    });
  });

  it('answers an edit asked at another size than the logo’s with a picture of that size in the source’s colours', () => {
    const answer = editAnswer({
      fields: { model: 'gpt-image-2', prompt: 'hero', size: '1920x1088' },
      image: IMAGE,
      colours: [
        [0, 68, 255],
        [255, 215, 0],
      ],
    }) as { data: { b64_json: string }[] };
    const png = Buffer.from(answer.data[0].b64_json, 'base64');
    // The PNG header's width and height.
    expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([1920, 1088]);
  });
});
