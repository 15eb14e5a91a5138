import {
  createServer,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';
import type { DevTextReplyKind } from './dev-text-api.config';
import { instanceOf, strictSchemaRefusal } from './strict-schema';
import {
  HOSTILE_SVG_NAMES,
  HOSTILE_SVGS,
  type HostileSvgName,
} from './hostile-svgs';

/** The models the dev text API knows; any other is 404 model_not_found. */
export const DEV_TEXT_MODELS = [
  'gpt-5.4-mini',
  'gpt-5.4',
  'gpt-5.4-nano',
  'gpt-5.5',
  'gpt-5-mini',
];

export interface DevTextReply {
  kind: DevTextReplyKind;
  status?: number;
  message?: string;
  latencyMs?: number;
  retryAfterSeconds?: number;
  /** An `answer` with exactly this text (a malformed or oversized one). */
  content?: string;
  /**
   * 'hostile-svg': which hostile SVG to answer an icon request with (by
   * default each in turn).
   */
  hostile?: HostileSvgName;
}

export interface DevTextApiOptions {
  port?: number;
  defaultReply?: DevTextReply;
  /** Where hostile SVG answers try to reach (hostile-svgs.ts). */
  beaconUrl?: string;
}

/** One chat completion request as the dev API received it. */
export interface RecordedChatRequest {
  authorization: string | undefined;
  body: Record<string, unknown>;
  /** The client closed the connection before the answer was sent. */
  closedEarly: boolean;
  receivedAt: number;
  closedAt?: number;
}

const providerError = (
  message: string,
  type: string,
  code: string | null,
  param: string | null = null,
) => ({ error: { message, type, param, code } });

/**
 * A local server that answers `POST …/chat/completions` as OpenAI's Chat
 * Completions API does, deterministically: marketing copy as JSON when
 * asked with its json_schema response format, a value of any other
 * schema it is sent (a wireframe), a small HTML page otherwise; the
 * provider's 400 for a schema strict mode refuses (strict-schema.ts);
 * the provider's 401, 404 model_not_found and 400s for parameters current
 * models refuse (max_tokens, a temperature other than 1); and on demand
 * (TEXT_DEV_REPLY or `replyNext`) errors, refusals, invalid answers,
 * broken JSON, reset connections and latency that a closed connection
 * ends.
 */
export class DevTextApi {
  readonly requests: RecordedChatRequest[] = [];
  private readonly queued: DevTextReply[] = [];
  private hostileTurn = 0;

  private constructor(
    private readonly server: Server,
    private readonly defaultReply: DevTextReply,
    private readonly beaconUrl: string,
  ) {}

  static async start(options: DevTextApiOptions = {}): Promise<DevTextApi> {
    const server = createServer();
    const api = new DevTextApi(
      server,
      options.defaultReply ?? { kind: 'answer' },
      options.beaconUrl ?? 'http://127.0.0.1:9/beacon',
    );
    server.on(
      'request',
      (request, response) => void api.handle(request, response),
    );
    await new Promise<void>((resolve) =>
      server.listen(options.port ?? 0, '127.0.0.1', resolve),
    );
    return api;
  }

  /** The base URL to set as TEXT_API_URL / CODE_API_URL. */
  get url(): string {
    const { port } = this.server.address() as AddressInfo;
    return `http://127.0.0.1:${port}/v1`;
  }

  /** The next calls get these replies, in order, then the default again. */
  replyNext(...replies: DevTextReply[]): void {
    this.queued.push(...replies);
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private async handle(
    request: IncomingMessage,
    response: ServerResponse,
  ): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const send = (status: number, body: unknown, headers = {}) => {
      if (response.destroyed) return;
      response.writeHead(status, {
        'Content-Type': 'application/json',
        ...headers,
      });
      response.end(JSON.stringify(body));
    };
    if (
      request.method !== 'POST' ||
      !request.url?.endsWith('/chat/completions')
    ) {
      return send(
        404,
        providerError(
          `Unknown endpoint: ${request.method} ${request.url}`,
          'invalid_request_error',
          null,
        ),
      );
    }
    let body: Record<string, unknown>;
    try {
      body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<
        string,
        unknown
      >;
    } catch {
      return send(
        400,
        providerError(
          'We could not parse the JSON body of your request.',
          'invalid_request_error',
          null,
        ),
      );
    }
    const recorded: RecordedChatRequest = {
      authorization: request.headers.authorization,
      body,
      closedEarly: false,
      receivedAt: Date.now(),
    };
    this.requests.push(recorded);
    response.on('close', () => {
      if (!response.writableFinished) {
        recorded.closedEarly = true;
        recorded.closedAt = Date.now();
      }
    });
    const refusal = this.validate(request, body);
    if (refusal) return send(refusal.status, refusal.body);
    const reply = this.queued.shift() ?? this.defaultReply;
    if (reply.latencyMs) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, reply.latencyMs);
        response.once('close', () => {
          clearTimeout(timer);
          resolve();
        });
      });
      if (recorded.closedEarly) return;
    }
    switch (reply.kind) {
      case 'error': {
        const status = reply.status ?? 500;
        return send(
          status,
          providerError(
            reply.message ??
              'The server had an error while processing your request.',
            status === 429
              ? 'requests'
              : status >= 500
                ? 'server_error'
                : 'invalid_request_error',
            status === 429 ? 'rate_limit_exceeded' : null,
          ),
          reply.retryAfterSeconds === undefined
            ? {}
            : { 'Retry-After': String(reply.retryAfterSeconds) },
        );
      }
      case 'reset':
        request.socket.destroy();
        return;
      case 'not-json':
        response.writeHead(reply.status ?? 200, {
          'Content-Type': 'text/html',
        });
        response.end('<html><body>Bad gateway</body></html>');
        return;
      case 'hostile-svg': {
        // Only an icon request is answered hostile SVG; others as usual.
        if (!isIconRequest(body)) {
          return send(200, completion(body, answerFor(body), null));
        }
        const name =
          reply.hostile ??
          HOSTILE_SVG_NAMES[this.hostileTurn++ % HOSTILE_SVG_NAMES.length];
        return send(
          200,
          completion(body, HOSTILE_SVGS[name](this.beaconUrl), null),
        );
      }
      case 'refusal':
        return send(
          200,
          completion(body, null, "I'm sorry, I can't help with that request."),
        );
      case 'invalid':
        return send(
          200,
          completion(
            body,
            isJsonRequest(body)
              ? '{"tagline":""}'
              : isIconRequest(body)
                ? 'Sure! Here is an icon.'
                : 'Sure! Here is a page.',
            null,
          ),
        );
      default:
        return send(
          200,
          completion(body, reply.content ?? answerFor(body), null),
        );
    }
  }

  /** What the provider refuses before generating anything. */
  private validate(
    request: IncomingMessage,
    body: Record<string, unknown>,
  ): { status: number; body: unknown } | undefined {
    const auth = request.headers.authorization;
    if (!auth?.startsWith('Bearer ') || auth.length <= 'Bearer '.length) {
      return {
        status: 401,
        body: providerError(
          "You didn't provide an API key. You need to provide your API key in an Authorization header using Bearer auth (i.e. Authorization: Bearer YOUR_KEY).",
          'invalid_request_error',
          null,
        ),
      };
    }
    const model = body.model;
    if (typeof model !== 'string' || !DEV_TEXT_MODELS.includes(model)) {
      return {
        status: 404,
        body: providerError(
          `The model \`${String(model)}\` does not exist or you do not have access to it.`,
          'invalid_request_error',
          'model_not_found',
        ),
      };
    }
    if ('max_tokens' in body) {
      return {
        status: 400,
        body: providerError(
          "Unsupported parameter: 'max_tokens' is not supported with this model. Use 'max_completion_tokens' instead.",
          'invalid_request_error',
          'unsupported_parameter',
          'max_tokens',
        ),
      };
    }
    if ('temperature' in body && body.temperature !== 1) {
      return {
        status: 400,
        body: providerError(
          "Unsupported value: 'temperature' does not support this value with this model. Only the default (1) value is supported.",
          'invalid_request_error',
          'unsupported_value',
          'temperature',
        ),
      };
    }
    if (isJsonRequest(body)) {
      const refusal = strictSchemaRefusal(
        (body.response_format as { json_schema?: unknown }).json_schema,
      );
      if (refusal) {
        return {
          status: 400,
          body: providerError(
            refusal,
            'invalid_request_error',
            'invalid_json_schema',
            'response_format',
          ),
        };
      }
    }
    const messages = body.messages;
    if (!Array.isArray(messages) || messages.length === 0) {
      return {
        status: 400,
        body: providerError(
          "Invalid 'messages': empty array. Expected an array with minimum length 1.",
          'invalid_request_error',
          'empty_array',
          'messages',
        ),
      };
    }
    return undefined;
  }
}

const isJsonRequest = (body: Record<string, unknown>): boolean =>
  (body.response_format as { type?: string } | undefined)?.type ===
  'json_schema';

/** The project's name as the service's prompt states it ("Name: …"). */
function nameIn(body: Record<string, unknown>): string {
  const messages = body.messages as Array<{ role?: string; content?: unknown }>;
  const user = messages
    .filter((m) => m.role === 'user')
    .map((m) => String(m.content))
    .join('\n');
  return /^Name: (.*)$/m.exec(user)?.[1]?.trim() || 'Your product';
}

/**
 * The wireframe sections a landing-page request lists, in order (the
 * lines after "Wireframe sections, in order:"), as a model following
 * them would build them; none without.
 */
function wireframeSectionsIn(
  body: Record<string, unknown>,
): Array<{ type: string; heading: string }> {
  const messages = body.messages as Array<{ role?: string; content?: unknown }>;
  const user = messages.find((m) => m.role === 'user')?.content;
  const lines = (typeof user === 'string' ? user : '').split('\n');
  const start = lines.indexOf('Wireframe sections, in order:');
  if (start < 0) return [];
  return lines.slice(start + 1).flatMap((line) => {
    const match = /^\d+\. ([a-z]+): heading ("(?:[^"\\]|\\.)*")/.exec(line);
    if (!match) return [];
    try {
      return [{ type: match[1], heading: JSON.parse(match[2]) as string }];
    } catch {
      return [];
    }
  });
}

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The service asks for an icon with a user message starting "Icon: …". */
function iconNameIn(body: Record<string, unknown>): string | undefined {
  const messages = body.messages as Array<{ role?: string; content?: unknown }>;
  for (const message of messages) {
    if (message.role !== 'user') continue;
    const name = /^Icon: ([a-z0-9-]+)$/m.exec(String(message.content))?.[1];
    if (name) return name;
  }
  return undefined;
}

const isIconRequest = (body: Record<string, unknown>): boolean =>
  iconNameIn(body) !== undefined;

/**
 * An icon as a code model writes one: an SVG on the 24×24 grid in a ```svg
 * fence, its shape told by the name's length so two icons differ.
 */
function iconAnswer(name: string): string {
  const corner = 2 + (name.length % 5);
  return `\`\`\`svg\n<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24" fill="none" stroke="currentColor" stroke-width="2"><rect x="3" y="3" width="18" height="18" rx="${corner}"/><path d="M8 12h8M12 8v8"/></svg>\n\`\`\``;
}

function answerFor(body: Record<string, unknown>): string {
  const icon = iconNameIn(body);
  if (icon !== undefined) return iconAnswer(icon);
  const name = nameIn(body);
  const format = body.response_format as
    { json_schema?: { name?: unknown; schema?: unknown } } | undefined;
  if (isJsonRequest(body) && format?.json_schema?.name !== 'marketing_copy') {
    // Any other structured request (a wireframe): a value of the schema
    // it was sent, as a model bound to that schema answers.
    return JSON.stringify(
      instanceOf(format?.json_schema?.schema, name.slice(0, 24)),
    );
  }
  if (isJsonRequest(body)) {
    return JSON.stringify({
      tagline: `${name}: made simple.`.slice(0, 120),
      description: `${name} helps teams do more with less effort, from the first day.`,
      posts: [
        `Meet ${name}.`.slice(0, 280),
        `Why teams choose ${name}.`.slice(0, 280),
        `Try ${name} today.`.slice(0, 280),
      ],
    });
  }
  return landingPageAnswer(body, name);
}

/** The system message's text (what the service asks for). */
function systemTextOf(body: Record<string, unknown>): string {
  const messages = body.messages as Array<{ role?: string; content?: unknown }>;
  return messages
    .filter((m) => m.role === 'system')
    .map((m) => String(m.content))
    .join('\n');
}

/**
 * A landing page as a careful code model writes one, in a ```html fence:
 * lang, viewport, description, title, one <h1>, the logo (the placeholder
 * the service replaces) only when the request has one, the wireframe's
 * sections when it lists them; it passes the service's site check with
 * no finding. A fix request (the page and its problems) gets the same
 * page: a model's corrected page, which the check then judges.
 */
function landingPageAnswer(
  body: Record<string, unknown>,
  name: string,
): string {
  const title = escapeHtml(name);
  const logo = systemTextOf(body).includes('<img src="logo.png"')
    ? `<img src="logo.png" alt="${title} logo" width="96">`
    : '';
  const main = wireframeSectionsIn(body)
    .map(
      ({ type, heading }) =>
        `<section class="${escapeHtml(type)}"><h2>${escapeHtml(heading)}</h2></section>`,
    )
    .join('');
  return `\`\`\`html\n<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="description" content="${title}: what it is and why it helps."><title>${title}</title><style>body{font-family:sans-serif;margin:0;padding:2rem;color:#1a1a1a;background:#ffffff}</style></head><body><header>${logo}<h1>${title}</h1></header><main>${main || `<p>Welcome to ${title}.</p>`}</main></body></html>\n\`\`\``;
}

function completion(
  body: Record<string, unknown>,
  content: string | null,
  refusal: string | null,
) {
  const prompt = JSON.stringify(body.messages).length;
  const output = (content ?? refusal ?? '').length;
  const promptTokens = Math.ceil(prompt / 4);
  const completionTokens = Math.ceil(output / 4);
  return {
    id: `chatcmpl-dev-${Date.now()}`,
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model: body.model,
    choices: [
      {
        index: 0,
        message: { role: 'assistant', content, refusal, annotations: [] },
        finish_reason: 'stop',
      },
    ],
    usage: {
      prompt_tokens: promptTokens,
      completion_tokens: completionTokens,
      total_tokens: promptTokens + completionTokens,
    },
  };
}
