import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One exported span, flattened from OTLP/JSON. */
export interface ReceivedSpan {
  traceId: string;
  spanId: string;
  parentSpanId: string;
  name: string;
  /** 1 internal, 2 server, 3 client. */
  kind: number;
  scope: string;
  attributes: Record<string, string | number | boolean>;
  events: { name: string; attributes: Record<string, unknown> }[];
  status: { code?: number };
}

interface OtlpValue {
  stringValue?: string;
  intValue?: number | string;
  doubleValue?: number;
  boolValue?: boolean;
}
interface OtlpAttribute {
  key: string;
  value: OtlpValue;
}
interface OtlpBody {
  resourceSpans: {
    scopeSpans: {
      scope: { name: string };
      spans: {
        traceId: string;
        spanId: string;
        parentSpanId?: string;
        name: string;
        kind: number;
        attributes?: OtlpAttribute[];
        events?: { name: string; attributes?: OtlpAttribute[] }[];
        status?: { code?: number };
      }[];
    }[];
  }[];
}

function plain(attributes: OtlpAttribute[] = []) {
  const result: Record<string, string | number | boolean> = {};
  for (const { key, value } of attributes) {
    const raw =
      value.stringValue ??
      value.intValue ??
      value.doubleValue ??
      value.boolValue ??
      '';
    result[key] = typeof raw === 'string' && value.intValue ? Number(raw) : raw;
  }
  return result;
}

/**
 * A collector's OTLP/HTTP endpoint in miniature, for the JSON encoding
 * (OTEL_EXPORTER_OTLP_PROTOCOL=http/json): POST /v1/traces, kept as they
 * arrive, raw bodies included (to search them for secrets).
 */
export class OtlpReceiver {
  readonly bodies: string[] = [];
  readonly spans: ReceivedSpan[] = [];

  private constructor(private readonly server: Server) {}

  static async start(): Promise<OtlpReceiver> {
    const server = createServer((req, res) => {
      let body = '';
      req.setEncoding('utf8');
      req.on('data', (chunk: string) => (body += chunk));
      req.on('end', () => {
        if (req.url === '/v1/traces') receiver.accept(body);
        res.writeHead(200, { 'Content-Type': 'application/json' });
        res.end('{}');
      });
    });
    const receiver = new OtlpReceiver(server);
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    return receiver;
  }

  /** OTEL_EXPORTER_OTLP_ENDPOINT for the service. */
  get endpoint(): string {
    const { port } = this.server.address() as AddressInfo;
    return `http://127.0.0.1:${port}`;
  }

  trace(traceId: string): ReceivedSpan[] {
    return this.spans.filter((span) => span.traceId === traceId);
  }

  /** Resolves once `condition` holds; rejects after `timeoutMs`. */
  async waitUntil(condition: () => boolean, timeoutMs = 15_000) {
    const deadline = Date.now() + timeoutMs;
    while (!condition()) {
      if (Date.now() > deadline) {
        throw new Error(`OtlpReceiver: condition not met in ${timeoutMs} ms`);
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
  }

  private accept(body: string): void {
    this.bodies.push(body);
    const parsed = JSON.parse(body) as OtlpBody;
    for (const resource of parsed.resourceSpans) {
      for (const scoped of resource.scopeSpans) {
        for (const span of scoped.spans) {
          this.spans.push({
            traceId: span.traceId,
            spanId: span.spanId,
            parentSpanId: span.parentSpanId ?? '',
            name: span.name,
            kind: span.kind,
            scope: scoped.scope.name,
            attributes: plain(span.attributes),
            events: (span.events ?? []).map((event) => ({
              name: event.name,
              attributes: plain(event.attributes),
            })),
            status: span.status ?? {},
          });
        }
      }
    }
  }
}
