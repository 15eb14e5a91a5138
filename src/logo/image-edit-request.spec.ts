import {
  editRequestFields,
  editsUrl,
  takesInputFidelity,
} from './image-edit-request';

describe('editRequestFields', () => {
  it('asks GPT image models for high input fidelity and never for response_format', () => {
    for (const model of [
      'gpt-image-1',
      'gpt-image-1.5',
      'gpt-image-2.5-sunburst',
    ]) {
      const fields = editRequestFields(model);
      expect(fields).toEqual({
        model,
        size: '1024x1024',
        output_format: 'png',
        input_fidelity: 'high',
      });
      expect(fields).not.toHaveProperty('response_format');
    }
  });

  it('sends no input_fidelity to gpt-image-1-mini, which does not take it', () => {
    const fields = editRequestFields('gpt-image-1-mini');
    expect(fields).not.toHaveProperty('input_fidelity');
    expect(fields).not.toHaveProperty('response_format');
    expect(takesInputFidelity('gpt-image-1-mini')).toBe(false);
  });

  it('asks other models (dall-e-2) for base64 and sends them no input_fidelity', () => {
    expect(editRequestFields('dall-e-2')).toEqual({
      model: 'dall-e-2',
      size: '1024x1024',
      response_format: 'b64_json',
    });
  });
});

describe('editsUrl', () => {
  it('makes /images/generations /images/edits, keeping host and prefix', () => {
    expect(editsUrl('https://api.openai.com/v1/images/generations')).toBe(
      'https://api.openai.com/v1/images/edits',
    );
    expect(editsUrl('http://127.0.0.1:4010/v1/images/generations')).toBe(
      'http://127.0.0.1:4010/v1/images/edits',
    );
  });

  it('has no edit endpoint for a URL that is not a generations endpoint', () => {
    expect(editsUrl('https://images.example.com/draw')).toBeUndefined();
  });
});
