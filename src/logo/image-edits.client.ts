import { Inject, Injectable } from '@nestjs/common';
import type { ConfigType } from '@nestjs/config';
import { logoConfig } from './logo.config';
import { extensionOf, type ImageType } from '../image-store/image-type';
import { ImageApiClient, type GeneratedImage } from './image-api.client';
import { editRequestFields, editsUrl } from './image-edit-request';
import { LogoGenerationError } from './logo-generation.error';

/** The image an edit starts from: a kept logo's bytes and type. */
export interface EditSource {
  bytes: Buffer;
  type: ImageType;
}

/** One edit call's body, encoded once and sent by every attempt. */
export interface EditForm {
  body: Buffer;
  contentType: string;
}

/** Refused before any call: IMAGE_API_URL names no /images/generations. */
export const NO_EDIT_ENDPOINT_MESSAGE =
  'The image API has no edit endpoint: IMAGE_API_URL does not end in /images/generations';

/**
 * The provider's image edit endpoint (IMAGE_API_URL with
 * /images/generations made /images/edits): one image a call, asked as
 * multipart/form-data, answered base64 and read, checked and mapped by
 * ImageApiClient as a generation is. One image a call, not `n`: the answer
 * reader decodes one image an answer, which bounds its memory to one
 * image whatever the count.
 */
@Injectable()
export class ImageEditsClient {
  private readonly url: string | undefined;
  private readonly model: string;

  constructor(
    private readonly client: ImageApiClient,
    @Inject(logoConfig.KEY) config: ConfigType<typeof logoConfig>,
  ) {
    this.url = editsUrl(config.imageApi.url);
    this.model = config.imageApi.model;
  }

  /**
   * The form of an edit of `source` by `prompt`, at `size` (a size the
   * model takes) or the logo's 1024x1024.
   */
  form(source: EditSource, prompt: string, size?: string): Promise<EditForm> {
    return encodeEditForm(
      {
        ...editRequestFields(this.model),
        ...(size ? { size } : {}),
        prompt,
        n: '1',
      },
      source,
    );
  }

  /** One attempt of the call (retries are the caller's). */
  send(
    form: EditForm,
    signal: AbortSignal,
    attempt: number,
  ): Promise<GeneratedImage> {
    if (this.url === undefined) {
      throw new LogoGenerationError(NO_EDIT_ENDPOINT_MESSAGE);
    }
    return this.client.send(
      {
        url: this.url,
        body: form.body,
        contentType: form.contentType,
        base64: true,
      },
      signal,
      attempt,
    );
  }
}

/**
 * `fields` and the image (part `image`, named logo.<ext>, with its media
 * type) as multipart/form-data, encoded by the platform's own FormData.
 */
export async function encodeEditForm(
  fields: Record<string, string>,
  source: EditSource,
): Promise<EditForm> {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  const mediaType = source.type.mediaType;
  form.append(
    'image',
    new Blob([new Uint8Array(source.bytes)], { type: mediaType }),
    `logo.${extensionOf(mediaType) ?? 'png'}`,
  );
  const encoded = new Response(form);
  return {
    body: Buffer.from(await encoded.arrayBuffer()),
    contentType: encoded.headers.get('content-type') ?? 'multipart/form-data',
  };
}
