import { once } from 'node:events';
import { createServer, Server, Socket, connect } from 'node:net';

/**
 * A TCP forwarder that a test can cut off, to stage a database outage:
 * 'down' refuses connections and drops the open ones; 'blackhole' accepts
 * connections and never answers (a host that vanished); 'freeze' keeps open
 * connections but stops passing bytes (a server that hangs mid-query);
 * 'up' forwards.
 */
export class TcpProxy {
  private mode: 'up' | 'blackhole' = 'up';
  private server: Server | undefined;
  private readonly sockets = new Set<Socket>();
  private readonly pairs = new Set<[Socket, Socket]>();

  private constructor(
    readonly port: number,
    private readonly target: { host: string; port: number },
  ) {}

  static async start(target: {
    host: string;
    port: number;
  }): Promise<TcpProxy> {
    const probe = createServer();
    probe.listen(0, '127.0.0.1');
    await once(probe, 'listening');
    const address = probe.address();
    probe.close();
    await once(probe, 'close');
    if (!address || typeof address === 'string') throw new Error('no port');
    const proxy = new TcpProxy(address.port, target);
    await proxy.up();
    return proxy;
  }

  /** Forward connections to the target (again). */
  async up(): Promise<void> {
    if (this.mode === 'blackhole') this.dropConnections();
    this.mode = 'up';
    if (this.server) return;
    this.server = createServer((client) => this.accept(client));
    this.server.listen(this.port, '127.0.0.1');
    await once(this.server, 'listening');
  }

  /** Accept connections but never answer. */
  async blackhole(): Promise<void> {
    await this.up();
    this.dropConnections();
    this.mode = 'blackhole';
  }

  /** Keep every connection open, new ones included, but pass no bytes. */
  freeze(): void {
    this.mode = 'blackhole';
    for (const [client, upstream] of this.pairs) {
      client.unpipe(upstream);
      upstream.unpipe(client);
    }
  }

  /** Refuse new connections and drop the open ones. */
  async down(): Promise<void> {
    this.dropConnections();
    const server = this.server;
    this.server = undefined;
    if (server) {
      server.close();
      await once(server, 'close');
    }
  }

  private dropConnections(): void {
    for (const socket of this.sockets) socket.destroy();
    this.sockets.clear();
    this.pairs.clear();
  }

  private accept(client: Socket): void {
    this.sockets.add(client);
    client.on('close', () => this.sockets.delete(client));
    client.on('error', () => client.destroy());
    if (this.mode === 'blackhole') return;
    const upstream = connect(this.target.port, this.target.host);
    this.sockets.add(upstream);
    upstream.on('close', () => {
      this.sockets.delete(upstream);
      client.destroy();
    });
    upstream.on('error', () => upstream.destroy());
    const pair: [Socket, Socket] = [client, upstream];
    this.pairs.add(pair);
    client.on('close', () => {
      upstream.destroy();
      this.pairs.delete(pair);
    });
    client.pipe(upstream).pipe(client);
  }
}
