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
});
