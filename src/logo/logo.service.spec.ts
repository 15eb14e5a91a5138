import { Test } from '@nestjs/testing';
import type { CallContext } from '../common/call-context';
import { InputValidationException } from '../failures/input-validation.error';
import { IdempotencyService } from '../idempotency/idempotency.service';
import { UsageService } from '../usage/usage.service';
import type { GenerateLogoDto } from './dto/generate-logo.dto';
import { HostedLogos } from './hosted-logos';
import { ImageApiClient } from './image-api.client';
import { ImageEditsClient } from './image-edits.client';
import { LogoGenerationError } from './logo-generation.error';
import { LogoQueue } from './logo-queue';
import { LogoRateLimit } from './logo-rate-limit';
import { logoConfig } from './logo.config';
import { KEY_MISSING_MESSAGE, TIMEOUT_MESSAGE } from './logo.constants';
import { LogoService } from './logo.service';
import { RetryingImageApi } from './retrying-image-api';

const DEADLINE_MS = 1000;
const REQUEST = {
  companyName: 'Acme',
  style: 'minimal',
  colors: ['#112233'],
} as unknown as GenerateLogoDto;

const callerOf = (signal = new AbortController().signal) =>
  ({
    caller: undefined,
    clientKey: 'ip:203.0.113.9',
    address: '203.0.113.9',
    signal,
    baseUrl: () => 'https://api.example.com',
    addLogFields: jest.fn(),
  }) as unknown as CallContext & { addLogFields: jest.Mock };

const BYTES = {
  kind: 'bytes',
  bytes: Buffer.from('png'),
  type: { mediaType: 'image/png' },
} as const;

async function build(
  options: { configured?: boolean; model?: string; base64?: boolean } = {},
) {
  const order: string[] = [];
  const imageApi = {
    isConfigured: options.configured ?? true,
    answersBase64: options.base64 ?? true,
  };
  const upstream = {
    generateImage: jest.fn<Promise<unknown>, unknown[]>(() => {
      order.push('call');
      return Promise.resolve<unknown>(BYTES);
    }),
    withRetries: jest.fn(),
  };
  const ticket = {
    acquired: jest.fn(() => {
      order.push('slot');
      return Promise.resolve();
    }),
    release: jest.fn(() => order.push('release')),
  };
  const queue = {
    waiting: 0,
    admit: jest.fn(() => {
      order.push('line');
      return ticket;
    }),
  };
  const rateLimit = {
    enabled: true,
    consume: jest.fn(() => {
      order.push('rate limit');
      return Promise.resolve();
    }),
  };
  const idempotency = {
    run: jest.fn((_key: unknown, _ms: number, work: () => unknown) => work()),
  };
  const hostedLogos = {
    host: jest.fn().mockResolvedValue({
      url: 'https://api.example.com/api/ai/logos/x.png',
      expiresAt: new Date('2026-11-29T04:00:00.000Z'),
    }),
  };
  const edits = { form: jest.fn(), send: jest.fn() };
  const usage = {
    metered: jest.fn(
      (_scope: unknown, _call: unknown, work: () => Promise<unknown>) => {
        order.push('reserved');
        return work();
      },
    ),
  };
  const moduleRef = await Test.createTestingModule({
    providers: [
      LogoService,
      { provide: ImageApiClient, useValue: imageApi },
      { provide: RetryingImageApi, useValue: upstream },
      { provide: LogoQueue, useValue: queue },
      { provide: LogoRateLimit, useValue: rateLimit },
      { provide: IdempotencyService, useValue: idempotency },
      { provide: HostedLogos, useValue: hostedLogos },
      { provide: ImageEditsClient, useValue: edits },
      { provide: UsageService, useValue: usage },
      {
        provide: logoConfig.KEY,
        useValue: {
          imageApi: {
            deadlineMs: DEADLINE_MS,
            model: options.model ?? 'dall-e-3',
            quality: 'standard',
            provider: undefined,
          },
        },
      },
    ],
  }).compile();
  return {
    service: moduleRef.get(LogoService),
    order,
    upstream,
    ticket,
    queue,
    rateLimit,
    idempotency,
    hostedLogos,
    usage,
  };
}

describe('LogoService', () => {
  it('without IMAGE_API_KEY nothing is reserved, queued or counted', async () => {
    const { service, usage, queue, rateLimit } = await build({
      configured: false,
    });
    const refused = await service
      .generate(REQUEST, callerOf())
      .catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(LogoGenerationError);
    expect((refused as Error).message).toBe(KEY_MISSING_MESSAGE);
    expect(usage.metered).not.toHaveBeenCalled();
    expect(queue.admit).not.toHaveBeenCalled();
    expect(rateLimit.consume).not.toHaveBeenCalled();
  });

  it('reserves the spend, takes a place in line, counts the client, waits for a slot, then calls; the slot is freed after', async () => {
    const { service, order, queue } = await build();
    await service.generate(REQUEST, callerOf());
    expect(order).toEqual([
      'reserved',
      'line',
      'rate limit',
      'slot',
      'call',
      'release',
    ]);
    expect(queue.admit).toHaveBeenCalledWith('ip:203.0.113.9', '203.0.113.9');
  });

  it('a refused or failed call still frees its slot', async () => {
    const { service, rateLimit, ticket, upstream } = await build();
    rateLimit.consume.mockRejectedValueOnce(new Error('429'));
    await expect(service.generate(REQUEST, callerOf())).rejects.toThrow('429');
    expect(ticket.release).toHaveBeenCalledTimes(1);
    upstream.generateImage.mockRejectedValueOnce(new Error('502'));
    await expect(service.generate(REQUEST, callerOf())).rejects.toThrow('502');
    expect(ticket.release).toHaveBeenCalledTimes(2);
  });

  it("a call counts against the caller's key, or a task's project and task when it names them", async () => {
    const { service, usage } = await build();
    await service.generate(REQUEST, callerOf());
    expect(usage.metered).toHaveBeenLastCalledWith(
      { userKey: 'ip:203.0.113.9', projectId: null, taskId: null },
      expect.objectContaining({ kind: 'image', model: 'dall-e-3' }),
      expect.any(Function),
      expect.any(Function),
    );
    const taskScope = { userKey: 'user:ann', projectId: 'p1', taskId: 't1' };
    await service.generateImage('a prompt', {
      ...callerOf(),
      usage: taskScope,
    });
    expect(usage.metered).toHaveBeenLastCalledWith(
      taskScope,
      expect.anything(),
      expect.any(Function),
      expect.any(Function),
    );
  });

  it("an upstream URL is answered as it is; upstream bytes are hosted at this service's origin", async () => {
    const { service, upstream, hostedLogos } = await build();
    upstream.generateImage.mockResolvedValueOnce({
      kind: 'url',
      url: 'https://images.example/1.png',
    });
    await expect(service.generate(REQUEST, callerOf())).resolves.toEqual({
      logoUrl: 'https://images.example/1.png',
      expiresAt: null,
    });
    await expect(service.generate(REQUEST, callerOf())).resolves.toEqual({
      logoUrl: 'https://api.example.com/api/ai/logos/x.png',
      expiresAt: '2026-11-29T04:00:00.000Z',
    });
    expect(hostedLogos.host).toHaveBeenCalledWith(
      expect.objectContaining({ bytes: BYTES.bytes, model: 'dall-e-3' }),
      'https://api.example.com',
    );
  });

  it("a preview expires when its URL does: the hosted logo's expiry, or what the image API's signed URL states", async () => {
    const { service, upstream } = await build();
    upstream.generateImage.mockResolvedValueOnce({
      kind: 'url',
      url: 'https://images.example/1.png?se=2026-11-29T05%3A00%3A00Z&sig=x',
    });
    await expect(service.generate(REQUEST, callerOf())).resolves.toMatchObject({
      expiresAt: '2026-11-29T05:00:00.000Z',
    });
  });

  it("a logo's bytes asked for are refused as an invalid answer when the upstream sends a URL", async () => {
    const { service, upstream } = await build();
    upstream.generateImage.mockResolvedValueOnce({
      kind: 'url',
      url: 'https://images.example/1.png',
    });
    const refused = await service
      .generateImage('a prompt', callerOf())
      .catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(LogoGenerationError);
    expect((refused as LogoGenerationError).code).toBe(
      'upstream_invalid_answer',
    );
    await expect(
      service.generateImage('a prompt', callerOf()),
    ).resolves.toEqual({
      bytes: BYTES.bytes,
      type: BYTES.type,
      prompt: 'a prompt',
      model: 'dall-e-3',
    });
    expect(upstream.generateImage).toHaveBeenLastCalledWith(
      'a prompt',
      expect.any(AbortSignal),
      expect.any(Number),
      { bytes: true, format: 'png' },
    );
  });

  it('svg only from a model that draws it (400 before anything is paid); png by default, svg for a vector-only model', async () => {
    const raster = await build();
    expect(() => raster.service.formatFor('svg')).toThrow(
      InputValidationException,
    );
    expect(raster.service.formatFor(undefined)).toBe('png');
    const vector = await build({ model: 'recraftv4_1_vector' });
    expect(vector.service.formatFor(undefined)).toBe('svg');
    expect(vector.service.formatFor('svg')).toBe('svg');
  });

  it('draws icons only with a model that draws SVG (Recraft vector), never a GPT image model', async () => {
    expect((await build()).service.drawsSvg).toBe(false);
    expect((await build({ model: 'gpt-image-2' })).service.drawsSvg).toBe(
      false,
    );
    expect(
      (await build({ model: 'recraftv4_1_vector' })).service.drawsSvg,
    ).toBe(true);
  });

  it('a call still running at IMAGE_API_DEADLINE_MS is aborted with the timeout message', async () => {
    jest.useFakeTimers();
    try {
      const { service, upstream, ticket } = await build();
      upstream.generateImage.mockImplementationOnce((...args: unknown[]) => {
        const signal = args[1] as AbortSignal;
        return new Promise((_resolve, reject) =>
          signal.addEventListener('abort', () =>
            reject(signal.reason as Error),
          ),
        );
      });
      const generated = service
        .generate(REQUEST, callerOf())
        .catch((error: unknown) => error);
      await jest.advanceTimersByTimeAsync(DEADLINE_MS - 1);
      expect(ticket.release).not.toHaveBeenCalled();
      await jest.advanceTimersByTimeAsync(1);
      const error = await generated;
      expect(error).toBeInstanceOf(LogoGenerationError);
      expect((error as Error).message).toBe(TIMEOUT_MESSAGE);
      expect(ticket.release).toHaveBeenCalled();
    } finally {
      jest.useRealTimers();
    }
  });

  it('a keyed request holds its key for the deadline and a margin', async () => {
    const { service, idempotency } = await build();
    const key = {
      recordId: 'r',
      fingerprint: 'f',
      answerOf: () => ({ status: 200, headers: {}, body: '{}' }),
    };
    await service.respond(REQUEST, callerOf(), key);
    expect(idempotency.run).toHaveBeenCalledWith(
      key,
      DEADLINE_MS + 10_000,
      expect.any(Function),
    );
  });

  it('adds the tokens the image model used to the request’s log line', async () => {
    const { service, upstream } = await build();
    upstream.generateImage.mockResolvedValueOnce({
      ...BYTES,
      usage: { inputTokens: 12, outputTokens: 34 },
    });
    const caller = callerOf();
    await service.generate(REQUEST, caller);
    expect(caller.addLogFields).toHaveBeenCalledWith({
      imageInputTokens: 12,
      imageOutputTokens: 34,
    });
  });
});
