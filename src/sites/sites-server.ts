import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationShutdown,
} from '@nestjs/common';
import {
  createServer,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { readSiteAddress } from './site-address';
import {
  CURRENT_CACHE_CONTROL,
  MISS_CACHE_CONTROL,
  SECURITY_HEADERS,
  VERSION_CACHE_CONTROL,
} from './site-headers';
import { SiteReader } from './site-reader';
import { sitesConfig, type SitesConfig } from './sites.config';

/** A site request is a GET of one small file: its headers come at once. */
const HEADERS_TIMEOUT_MS = 10_000;
const REQUEST_TIMEOUT_MS = 30_000;
const KEEP_ALIVE_TIMEOUT_MS = 5_000;
/** In-flight answers get this long at shutdown before their sockets close. */
const CLOSE_GRACE_MS = 2_000;

/**
 * The sites listener: a plain node:http server of its own (SITES_PORT), so
 * that published pages are never served from the API's origin. main.ts
 * starts it in the processes that serve the API (not PROCESS_ROLE=worker)
 * once the API listens; with SITES_STORE=s3 the bucket serves the sites
 * and it does not start. Closed with the application. GET and HEAD only;
 * every answer carries the security headers, and never a cookie.
 */
@Injectable()
export class SitesServer implements OnApplicationShutdown {
  private readonly logger = new Logger('Sites');
  private server?: Server;

  constructor(
    @Inject(sitesConfig.KEY) private readonly config: SitesConfig,
    private readonly reader: SiteReader,
  ) {}

  /** Listens on SITES_PORT; nothing with SITES_STORE=s3. */
  async start(): Promise<void> {
    if (this.config.store !== 'database' || this.server) return;
    const server = createServer(
      { maxHeaderSize: 8 * 1024 },
      (request, response) => void this.answer(request, response),
    );
    server.headersTimeout = HEADERS_TIMEOUT_MS;
    server.requestTimeout = REQUEST_TIMEOUT_MS;
    server.keepAliveTimeout = KEEP_ALIVE_TIMEOUT_MS;
    server.listen(this.config.port, this.config.host);
    // Rejects on 'error': a port in use fails the start-up.
    await once(server, 'listening');
    this.server = server;
    this.logger.log(
      `Serving sites on http://${this.config.host}:${this.port()}`,
    );
  }

  async onApplicationShutdown(): Promise<void> {
    const server = this.server;
    if (!server) return;
    this.server = undefined;
    const closed = once(server, 'close');
    server.close();
    server.closeIdleConnections();
    const grace = setTimeout(
      () => server.closeAllConnections(),
      CLOSE_GRACE_MS,
    );
    await closed;
    clearTimeout(grace);
  }

  /** The port it listens on (SITES_PORT=0 picks one); undefined when not started. */
  port(): number | undefined {
    return (this.server?.address() as AddressInfo | null)?.port;
  }

  private async answer(
    request: IncomingMessage,
    response: ServerResponse,
  ): Promise<void> {
    for (const [name, value] of Object.entries(SECURITY_HEADERS)) {
      response.setHeader(name, value);
    }
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      response.setHeader('Allow', 'GET, HEAD');
      return this.plain(response, 405, 'Method not allowed');
    }
    try {
      await this.serve(request, response);
    } catch (error) {
      this.logger.warn(
        `GET site file failed: ${error instanceof Error ? error.message : String(error)}`,
      );
      if (!response.headersSent) {
        response.setHeader('Retry-After', '1');
        this.plain(response, 503, 'Unavailable');
      } else response.destroy();
    }
  }

  private async serve(
    request: IncomingMessage,
    response: ServerResponse,
  ): Promise<void> {
    const address = readSiteAddress(request.url ?? '');
    if (!address) return this.plain(response, 404, 'Not found');
    if (address.kind === 'slash') {
      response.setHeader('Location', address.location);
      return this.plain(response, 301, 'Moved');
    }
    const current = address.version === 'current';
    const version =
      address.version === 'current'
        ? await this.reader.currentVersion(address.projectId)
        : address.version;
    const file =
      version === undefined
        ? undefined
        : await this.reader.file(address.projectId, version, address.path);
    if (!file) return this.plain(response, 404, 'Not found');
    const etag = `"${file.sha256}"`;
    response.setHeader(
      'Cache-Control',
      current ? CURRENT_CACHE_CONTROL : VERSION_CACHE_CONTROL,
    );
    response.setHeader('ETag', etag);
    if (request.headers['if-none-match'] === etag) {
      response.statusCode = 304;
      response.end();
      return;
    }
    response.statusCode = 200;
    response.setHeader('Content-Type', file.contentType);
    response.setHeader('Content-Length', file.bytes.length);
    response.end(request.method === 'HEAD' ? undefined : file.bytes);
  }

  private plain(response: ServerResponse, status: number, text: string): void {
    const body = `${text}\n`;
    response.statusCode = status;
    response.setHeader('Cache-Control', MISS_CACHE_CONTROL);
    response.setHeader('Content-Type', 'text/plain; charset=utf-8');
    response.setHeader('Content-Length', Buffer.byteLength(body));
    response.end(response.req.method === 'HEAD' ? undefined : body);
  }
}
