import { listedModels, statusInList } from './model-status';
import { modelsUrlOf } from './models-url';

describe('the provider model list', () => {
  const list = listedModels({
    object: 'list',
    data: [
      { id: 'gpt-image-2', object: 'model', created: 1, owned_by: 'system' },
      { id: 'gpt-image-1.5', shutdown_date: '2026-12-01' },
      { id: 42 },
    ],
  })!;

  it('reads id and shutdown_date, null when none is announced', () => {
    expect(list).toEqual([
      { id: 'gpt-image-2', shutdownDate: null },
      { id: 'gpt-image-1.5', shutdownDate: '2026-12-01' },
    ]);
  });

  it('is not a list without data[]', () =>
    expect(listedModels({ error: {} })).toBeUndefined());

  it('a listed model without a date is available', () =>
    expect(statusInList('gpt-image-2', list, '2026-11-27').status).toBe(
      'available',
    ));

  it('a shutdown date ahead is scheduled, from that day on the model is gone', () => {
    expect(statusInList('gpt-image-1.5', list, '2026-11-30')).toEqual({
      model: 'gpt-image-1.5',
      status: 'shutdown_scheduled',
      shutdownDate: '2026-12-01',
    });
    expect(statusInList('gpt-image-1.5', list, '2026-12-01').status).toBe(
      'gone',
    );
  });

  it('a model the list does not hold is gone', () =>
    expect(statusInList('dall-e-3', list, '2026-11-27').status).toBe('gone'));
});

describe('the model list URL', () => {
  it('sits next to the generation endpoint, under the same path prefix', () => {
    expect(
      modelsUrlOf('openai', 'https://api.openai.com/v1/images/generations'),
    ).toBe('https://api.openai.com/v1/models');
    expect(
      modelsUrlOf(
        'openai',
        'http://127.0.0.1:4010/openai/v1/images/generations/',
      ),
    ).toBe('http://127.0.0.1:4010/openai/v1/models');
  });

  it('is not read for other profiles or other endpoints', () => {
    expect(
      modelsUrlOf(
        'openai-compatible',
        'https://api.openai.com/v1/images/generations',
      ),
    ).toBeUndefined();
    expect(
      modelsUrlOf('openai', 'https://example.com/generate'),
    ).toBeUndefined();
  });
});
