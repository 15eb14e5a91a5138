import { HttpService } from '@nestjs/axios';
import { Inject, Injectable } from '@nestjs/common';
import { isAxiosError } from 'axios';
import { firstValueFrom } from 'rxjs';
import { appConfig } from '../../config/app.config';
import type { AppConfig } from '../../config/environment';
import {
  INVALID_RESPONSE_MESSAGE,
  LOGO_GENERIC_FAILURE,
} from './logo.constants';
import { LogoGenerationError } from './logo-generation.error';

/**
 * The OpenAI-compatible image generation endpoint (IMAGE_API_URL).
 * Every failure leaves as a LogoGenerationError whose text is safe to show:
 * the key is never part of it, and neither is a socket error or an address.
 */
@Injectable()
export class ImageApiClient {
  private readonly settings: AppConfig['imageApi'];

  constructor(
    private readonly http: HttpService,
    @Inject(appConfig.KEY) config: AppConfig,
  ) {
    this.settings = config.imageApi;
  }

  get isConfigured(): boolean {
    return this.settings.key !== undefined;
  }

  /** SPEC 4.6 rule 4: one 1024x1024 standard image, returned as a URL. */
  async generateImageUrl(prompt: string): Promise<string> {
    const { key, url, model, timeoutMs } = this.settings;
    if (key === undefined) throw new Error('The image API key is not set');

    let status: number;
    let body: unknown;
    try {
      const response = await firstValueFrom(
        this.http.post<unknown>(
          url,
          {
            model,
            prompt,
            n: 1,
            size: '1024x1024',
            quality: 'standard',
            response_format: 'url',
          },
          {
            headers: {
              Authorization: `Bearer ${key}`,
              'Content-Type': 'application/json',
            },
            // axios's own timeout only limits silence on the socket; the
            // signal bounds the whole call, however slowly bytes trickle in.
            timeout: timeoutMs,
            signal: AbortSignal.timeout(timeoutMs),
            // Every status is read here; axios must not throw on 4xx/5xx.
            validateStatus: () => true,
            maxRedirects: 0,
          },
        ),
      );
      status = response.status;
      body = response.data;
    } catch (error) {
      throw new LogoGenerationError(describeTransportFailure(error));
    }

    if (status < 200 || status >= 300) {
      const message = upstreamErrorMessage(body) ?? LOGO_GENERIC_FAILURE;
      throw new LogoGenerationError(message.split(key).join('[redacted]'));
    }
    const imageUrl = firstImageUrl(body);
    if (!imageUrl) throw new LogoGenerationError(INVALID_RESPONSE_MESSAGE);
    return imageUrl;
  }
}

/** `{ error: { message } }`, as OpenAI-compatible APIs report failures. */
function upstreamErrorMessage(body: unknown): string | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  const error = (body as { error?: unknown }).error;
  if (typeof error !== 'object' || error === null) return undefined;
  const message = (error as { message?: unknown }).message;
  return typeof message === 'string' && message.trim() !== ''
    ? message
    : undefined;
}

/** `{ data: [{ url }] }` */
function firstImageUrl(body: unknown): string | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  const data = (body as { data?: unknown }).data;
  if (!Array.isArray(data) || data.length === 0) return undefined;
  const first: unknown = data[0];
  if (typeof first !== 'object' || first === null) return undefined;
  const url = (first as { url?: unknown }).url;
  return typeof url === 'string' && url !== '' ? url : undefined;
}

function describeTransportFailure(error: unknown): string {
  const code = isAxiosError(error) ? error.code : undefined;
  if (
    code === 'ECONNABORTED' ||
    code === 'ETIMEDOUT' ||
    code === 'ERR_CANCELED'
  ) {
    return 'The image service did not respond in time';
  }
  return 'The image service could not be reached';
}
