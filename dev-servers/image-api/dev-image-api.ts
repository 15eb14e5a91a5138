import { randomUUID } from 'node:crypto';
import { EventEmitter, once } from 'node:events';
import {
  createServer,
  IncomingHttpHeaders,
  IncomingMessage,
  Server,
  ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';
import { isGptImageModel } from '../../src/logo/providers/model-capabilities';
import {
  EDITS_PATH,
  editAnswer,
  readEditCall,
  refuseEdit,
  type EditCall,
} from './edits';
import { drawLogoPng } from './logo-png';
import { readLogoPrompt } from './logo-prompt-reader';
import { drawIconSvg } from './icon-svg';
import { drawLogoSvg } from './logo-svg';
import {
  drawsSvg,
  modelList,
  providerRoute,
  refusalOf,
} from './provider-routes';
import {
  type DevReply,
  type DevReplyOptions,
  parseReplyOptions,
  replyFromOptions,
  Replies,
} from './replies';

export const GENERATIONS_PATH = '/v1/images/generations';
const IMAGES_PATH = '/images/';
const ADMIN_PATH = '/_dev';

/** Drawn logos kept for their URLs; the oldest are forgotten first. */
const MAX_IMAGES = 500;

export interface RecordedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  /** The body parsed as JSON (undefined when it was not JSON). */
  body: unknown;
  /** Date.now() when the request arrived. */
  receivedAt: number;
  /** The caller closed the connection before the answer was sent. */
  closedEarly: boolean;
  /** Date.now() when such an early close was seen. */
  closedAt?: number;
}

export interface DevImageApiOptions {
  /** Default 0: any free port. */
  port?: number;
  /** Default 127.0.0.1: the dev API is never reachable from elsewhere. */
  host?: string;
  /** The reply when no one-off reply is queued. Default: draw the logo. */
  defaultReply?: DevReply;
}

/**
 * A local, OpenAI-compatible image generation API for development and tests
 * (`npm run image-api:dev`, and the e2e suites' stand-in for the paid one).
 *
 * POST /v1/images/generations draws a real logo from the prompt (the
 * company's initials in the requested colors, a shape for the style). For
 * a GPT image model (`gpt-image…`, `chatgpt-image…`) it behaves as those
 * do: `response_format` is refused with a 400, and the answer is
 * `{created, data: [{b64_json}], usage}`, a PNG. Any other model answers
 * `{created, data: [{b64_json, revised_prompt}]}`, a PNG, when asked for
 * `response_format: "b64_json"`; otherwise it keeps an SVG and answers
 * `{created, data: [{url}]}` with a URL served by this server (retired model names are not refused, so the default
 * configuration works against it). No key is needed. GET /v1/models lists
 * the registry's models with their shutdown dates; under /openai and
 * /together it plays those providers strictly (provider-routes.ts). Every
 * call to the API is recorded.
 *
 * It can be made slow or failing: in code (`respondWith`, `respondNext`), at
 * start-up (IMAGE_DEV_* variables, see main.ts) and while it runs, through
 * the admin endpoints under /_dev (README.md, "Dev image API").
 */
export class DevImageApi {
  readonly requests: RecordedRequest[] = [];
  private readonly startReply: DevReply;
  private defaultReply: DevReply;
  private readonly nextReplies: DevReply[] = [];
  private readonly images = new Map<string, string>();
  private readonly changes = new EventEmitter();
  private open = 0;
  private maxOpen = 0;

  private constructor(
    private readonly server: Server,
    defaultReply: DevReply,
  ) {
    this.startReply = defaultReply;
    this.defaultReply = defaultReply;
    this.changes.setMaxListeners(0);
  }

  static async start(options: DevImageApiOptions = {}): Promise<DevImageApi> {
    // The handler runs only once a request arrives, after `api` is set.
    const server = createServer((req, res) => api.handle(req, res));
    const api = new DevImageApi(
      server,
      options.defaultReply ?? Replies.image(),
    );
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1');
    await once(server, 'listening');
    return api;
  }

  /** e.g. http://127.0.0.1:4010 */
  get baseUrl(): string {
    const { address, port } = this.server.address() as AddressInfo;
    const host = address.includes(':') ? `[${address}]` : address;
    return `http://${host}:${port}`;
  }

  /** The generation endpoint: the service's IMAGE_API_URL. */
  get url(): string {
    return `${this.baseUrl}${GENERATIONS_PATH}`;
  }

  /** Calls being answered right now. */
  get openCalls(): number {
    return this.open;
  }

  /** The most calls open at once since start or the last reset(). */
  get maxOpenCalls(): number {
    return this.maxOpen;
  }

  /** The reply to every following call (until reset). */
  respondWith(reply: DevReply): void {
    this.defaultReply = reply;
  }

  /** One-off replies for the next calls, in order; then the default again. */
  respondNext(...replies: DevReply[]): void {
    this.nextReplies.push(...replies);
  }

  /** Back to the start-up reply, no one-off replies, an empty record. */
  reset(): void {
    this.defaultReply = this.startReply;
    this.nextReplies.length = 0;
    this.requests.length = 0;
    this.maxOpen = this.open;
  }

  /**
   * Resolves once `condition` holds (checked after every call arrives or
   * ends); rejects after `timeoutMs`, so a test fails instead of hanging.
   */
  async waitUntil(condition: () => boolean, timeoutMs = 10_000): Promise<void> {
    if (condition()) return;
    await new Promise<void>((resolve, reject) => {
      const check = () => {
        if (!condition()) return;
        clearTimeout(timer);
        this.changes.off('change', check);
        resolve();
      };
      const timer = setTimeout(() => {
        this.changes.off('change', check);
        reject(new Error(`DevImageApi: condition not met in ${timeoutMs} ms`));
      }, timeoutMs);
      this.changes.on('change', check);
    });
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    this.server.close();
    await once(this.server, 'close');
  }

  private handle(req: IncomingMessage, res: ServerResponse): void {
    const path = req.url ?? '';
    if (req.method === 'GET' && path.startsWith(IMAGES_PATH)) {
      return this.serveImage(path.slice(IMAGES_PATH.length), res);
    }
    // Edits are multipart forms, not JSON (edits.ts).
    if (req.method === 'POST' && path === EDITS_PATH) {
      void readEditCall(req).then((edit) =>
        this.handleCall(req, res, path, edit.fields, edit),
      );
      return;
    }
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = parseJson(Buffer.concat(chunks).toString('utf8'));
      if (path === ADMIN_PATH || path.startsWith(`${ADMIN_PATH}/`)) {
        return this.handleAdmin(req.method ?? '', path, body, res);
      }
      this.handleCall(req, res, path, body);
    });
  }

  private handleCall(
    req: IncomingMessage,
    res: ServerResponse,
    path: string,
    body: unknown,
    edit?: EditCall,
  ): void {
    const record: RecordedRequest = {
      method: req.method ?? '',
      path,
      headers: req.headers,
      body,
      receivedAt: Date.now(),
      closedEarly: false,
    };
    this.requests.push(record);
    this.open++;
    this.maxOpen = Math.max(this.maxOpen, this.open);
    let timer: NodeJS.Timeout | undefined;
    res.once('close', () => {
      clearTimeout(timer);
      record.closedEarly = !res.writableFinished;
      if (record.closedEarly) record.closedAt = Date.now();
      this.open--;
      this.changes.emit('change');
    });
    this.changes.emit('change');

    const route = providerRoute(req.method ?? '', path);
    if (route?.kind === 'models') return sendJson(res, 200, modelList());
    const refusal = route && refusalOf(route.strict, body);
    if (refusal) return sendJson(res, refusal.status, refusal.json);
    if (!route && !edit) {
      return sendJson(res, 404, {
        error: { message: `Unknown endpoint: ${req.method} ${path}` },
      });
    }
    const model = (body as { model?: unknown } | undefined)?.model;
    if (
      typeof model === 'string' &&
      isGptImageModel(model) &&
      'response_format' in (body as object)
    ) {
      // What the provider answers: GPT image models always answer base64.
      return sendJson(res, 400, {
        error: {
          message: "Unknown parameter: 'response_format'.",
          type: 'invalid_request_error',
          param: 'response_format',
          code: 'unknown_parameter',
        },
      });
    }
    const editRefusal = edit && refuseEdit(edit);
    if (editRefusal) return sendJson(res, 400, editRefusal);
    const reply = this.nextReplies.shift() ?? this.defaultReply;
    const answer = () => this.answer(reply, body, res, edit);
    if (reply.latencyMs) timer = setTimeout(answer, reply.latencyMs);
    else answer();
  }

  private answer(
    reply: DevReply,
    body: unknown,
    res: ServerResponse,
    edit?: EditCall,
  ): void {
    if (res.destroyed) return;
    const headers = reply.headers ?? {};
    if ('resetConnection' in reply) {
      res.socket?.resetAndDestroy();
      return;
    }
    if ('noAnswer' in reply) return;
    if ('resetAfterBytes' in reply) {
      const text = JSON.stringify(reply.json);
      res.writeHead(reply.status, {
        'Content-Type': 'application/json',
        'Content-Length': Buffer.byteLength(text),
        ...headers,
      });
      res.write(text.slice(0, reply.resetAfterBytes), () =>
        res.socket?.resetAndDestroy(),
      );
      return;
    }
    if ('trickleEveryMs' in reply) {
      return trickle(res, reply.status, JSON.stringify(reply.json), {
        everyMs: reply.trickleEveryMs,
        headers,
      });
    }
    if ('paddingBytes' in reply) {
      const padded = { padding: 'x'.repeat(reply.paddingBytes) };
      return sendJson(
        res,
        reply.status,
        { ...padded, ...(reply.json as object) },
        headers,
      );
    }
    if ('json' in reply)
      return sendJson(res, reply.status, reply.json, headers);
    if ('text' in reply) {
      res.writeHead(reply.status, {
        'Content-Type': reply.contentType ?? 'text/html',
        ...headers,
      });
      res.end(reply.text);
      return;
    }
    if (edit) return sendJson(res, 200, editAnswer(edit), headers);
    const prompt = (body as { prompt?: unknown } | undefined)?.prompt;
    if (typeof prompt !== 'string' || prompt.trim() === '') {
      return sendJson(res, 400, {
        error: {
          message: "'prompt' is required and must be a non-empty string",
          type: 'invalid_request_error',
        },
      });
    }
    const model = (body as { model?: unknown }).model;
    if (typeof model === 'string' && isGptImageModel(model)) {
      const png = drawLogoPng(readLogoPrompt(prompt));
      return sendJson(
        res,
        200,
        {
          created: Math.floor(Date.now() / 1000),
          background: 'transparent',
          output_format: 'png',
          quality: 'low',
          size: '1024x1024',
          data: [{ b64_json: png.toString('base64') }],
          // The shape of the provider's usage; the counts are made up.
          usage: {
            input_tokens: prompt.length,
            output_tokens: 272,
            total_tokens: prompt.length + 272,
            input_tokens_details: {
              text_tokens: prompt.length,
              image_tokens: 0,
            },
          },
        },
        headers,
      );
    }
    // The other models answer base64 only when asked (response_format).
    // Together AI names it "base64".
    const format = (body as { response_format?: unknown }).response_format;
    if (drawsSvg(model) && format === 'b64_json') {
      const svg = Buffer.from(
        drawIconSvg(prompt) ?? drawLogoSvg(readLogoPrompt(prompt)),
      );
      return sendJson(
        res,
        200,
        {
          created: Math.floor(Date.now() / 1000),
          data: [{ b64_json: svg.toString('base64') }],
        },
        headers,
      );
    }
    if (format === 'b64_json' || format === 'base64') {
      const png = drawLogoPng(readLogoPrompt(prompt));
      return sendJson(
        res,
        200,
        {
          created: Math.floor(Date.now() / 1000),
          data: [{ b64_json: png.toString('base64'), revised_prompt: prompt }],
        },
        headers,
      );
    }
    const id = randomUUID();
    this.images.set(
      id,
      drawsSvg(model)
        ? (drawIconSvg(prompt) ?? drawLogoSvg(readLogoPrompt(prompt)))
        : drawLogoSvg(readLogoPrompt(prompt)),
    );
    if (this.images.size > MAX_IMAGES) {
      this.images.delete(this.images.keys().next().value as string);
    }
    sendJson(
      res,
      200,
      {
        created: Math.floor(Date.now() / 1000),
        data: [
          {
            url: `${this.baseUrl}${IMAGES_PATH}${id}.svg`,
            revised_prompt: prompt,
          },
        ],
      },
      headers,
    );
  }

  private serveImage(file: string, res: ServerResponse): void {
    const svg = this.images.get(file.replace(/\.svg$/, ''));
    if (!svg) {
      return sendJson(res, 404, { error: { message: 'No such image' } });
    }
    res.writeHead(200, {
      'Content-Type': 'image/svg+xml; charset=utf-8',
      'Cache-Control': 'no-store',
    });
    res.end(svg);
  }

  /**
   * For a developer at a terminal: GET /_dev (state), GET /_dev/requests,
   * PUT /_dev/reply (the default reply), POST /_dev/next (one-off replies,
   * one object or a list), POST /_dev/reset. Replies are DevReplyOptions.
   */
  private handleAdmin(
    method: string,
    path: string,
    body: unknown,
    res: ServerResponse,
  ): void {
    try {
      const route = `${method} ${path.replace(/\/$/, '')}`;
      switch (route) {
        case `GET ${ADMIN_PATH}`:
          return sendJson(res, 200, {
            defaultReply: this.defaultReply,
            nextReplies: this.nextReplies,
            requests: this.requests.length,
            openCalls: this.open,
          });
        case `GET ${ADMIN_PATH}/requests`:
          return sendJson(res, 200, { requests: this.requests.map(redacted) });
        case `PUT ${ADMIN_PATH}/reply`:
          this.respondWith(replyFromOptions(parseReplyOptions(body)));
          return sendJson(res, 200, { defaultReply: this.defaultReply });
        case `POST ${ADMIN_PATH}/next`: {
          const list: unknown[] = Array.isArray(body) ? body : [body];
          const options: DevReplyOptions[] = list.map(parseReplyOptions);
          this.respondNext(...options.map(replyFromOptions));
          return sendJson(res, 200, { nextReplies: this.nextReplies });
        }
        case `POST ${ADMIN_PATH}/reset`:
          this.reset();
          return sendJson(res, 200, { defaultReply: this.defaultReply });
        default:
          return sendJson(res, 404, {
            error: { message: `Unknown admin endpoint: ${route}` },
          });
      }
    } catch (error) {
      sendJson(res, 400, {
        error: {
          message: error instanceof Error ? error.message : 'Bad request',
        },
      });
    }
  }
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function sendJson(
  res: ServerResponse,
  status: number,
  json: unknown,
  headers: Record<string, string> = {},
): void {
  res.writeHead(status, { 'Content-Type': 'application/json', ...headers });
  res.end(JSON.stringify(json));
}

/** Sends `text` one byte every `everyMs`, until done or the caller leaves. */
function trickle(
  res: ServerResponse,
  status: number,
  text: string,
  options: { everyMs: number; headers: Record<string, string> },
): void {
  const bytes = Buffer.from(text);
  res.writeHead(status, {
    'Content-Type': 'application/json',
    'Content-Length': bytes.length,
    ...options.headers,
  });
  let sent = 0;
  const timer = setInterval(() => {
    if (res.destroyed) return clearInterval(timer);
    res.write(bytes.subarray(sent, sent + 1));
    sent++;
    if (sent >= bytes.length) {
      clearInterval(timer);
      res.end();
    }
  }, options.everyMs);
  res.once('close', () => clearInterval(timer));
}

/** A recorded call as the admin endpoint shows it: no bearer key. */
function redacted(request: RecordedRequest): RecordedRequest {
  const headers = { ...request.headers };
  if (headers.authorization) headers.authorization = '[redacted]';
  return { ...request, headers };
}
