import { EventEmitter } from 'node:events';
import type { Response } from 'express';
import { sseSinkOf } from '../common/http/sse-responder';
import type { ChangeLog } from '../change-log/change-log.repository';
import type { ChangeFeed, FeedSubscriber } from './change-feed';
import { EventStreams, type StreamRequest } from './event-streams.service';
import type { EventMetrics } from './event-metrics';
import { TooManyStreamsError } from './events.errors';
import { EventPresenter } from './presented-event';
import { AssetUrls } from '../assets/asset-urls';
import type { AssetsConfig } from '../assets/assets.config';

/**
 * A stream whose client went away before it began (during the auth check
 * or the project lookup, or while it subscribes) is forgotten at once: its
 * 'close' came before anyone listened, and it would otherwise count against
 * its client (EVENTS_CLIENT_LIMIT) and the instance for good.
 */
describe('EventStreams', () => {
  class FakeResponse extends EventEmitter {
    destroyed = false;
    socket: { destroyed: boolean } | null = { destroyed: false };
    writableLength = 0;
    status = () => this;
    setHeader = () => this;
    flushHeaders = () => undefined;
    written: string[] = [];
    write = (chunk: string) => {
      this.written.push(String(chunk));
      return true;
    };
    end = () => this;
    destroy = () => {
      this.destroyed = true;
      if (this.socket) this.socket.destroyed = true;
      this.emit('close');
      return this;
    };
  }

  function streamsWith(subscribe: (s: FeedSubscriber) => Promise<number>) {
    const held = new Set<FeedSubscriber>();
    const feed = {
      subscribe: jest.fn(async (subscriber: FeedSubscriber) => {
        const cursor = await subscribe(subscriber);
        held.add(subscriber);
        return cursor;
      }),
      unsubscribe: jest.fn((subscriber: FeedSubscriber) =>
        held.delete(subscriber),
      ),
    };
    const metrics = {
      opened: jest.fn(),
      closed: jest.fn(),
      closedBy: jest.fn(),
      wrote: jest.fn(),
      replay: jest.fn(),
      reset: jest.fn(),
      paced: jest.fn(),
      refusedUnscoped: jest.fn(),
    };
    const streams = new EventStreams(
      {} as ChangeLog,
      feed as unknown as ChangeFeed,
      {
        clientLimit: 1,
        instanceLimit: 10,
        bufferLimitBytes: 65_536,
        replayStallSeconds: 10,
        heartbeatSeconds: 15,
        pollMs: 1_000,
        retentionSeconds: 60,
        replayRatePerSecond: 2_000,
        unscopedAddressLimit: 2,
        unscopedNetworkLimit: 20,
      },
      metrics as unknown as EventMetrics,
      new EventPresenter(urls),
    );
    return { streams, held, metrics };
  }

  const urls = new AssetUrls({ mode: 'none' }, {
    urlTtlSeconds: 3600,
  } as AssetsConfig);

  const request: StreamRequest = {
    scope: {},
    lastEventId: undefined,
    clientKey: 'ip:127.0.0.1',
    baseUrl: 'https://api.example.com',
    expiresAt: undefined,
  };

  it('forgets a stream whose client left before it began', async () => {
    const { streams, held, metrics } = streamsWith(() => Promise.resolve(0));
    const gone = new FakeResponse();
    gone.destroyed = true;
    gone.socket = null;

    await streams.open(request, sseSinkOf(gone as unknown as Response));

    expect(held.size).toBe(0);
    expect(metrics.closed).toHaveBeenCalledTimes(
      metrics.opened.mock.calls.length,
    );
    // The client's one allowed stream is free again.
    const next = new FakeResponse();
    await streams.open(request, sseSinkOf(next as unknown as Response));
    expect(held.size).toBe(1);
    next.destroy();
    expect(held.size).toBe(0);
  });

  it('forgets a stream whose client left while it subscribed to the feed', async () => {
    const gone = new FakeResponse();
    const { streams, held } = streamsWith(() => {
      gone.destroy();
      return Promise.resolve(0);
    });

    await streams.open(request, sseSinkOf(gone as unknown as Response));

    expect(held.size).toBe(0);
    const next = new FakeResponse();
    await expect(
      streams.open(request, sseSinkOf(next as unknown as Response)),
    ).resolves.toBeUndefined();
    expect(held.size).toBe(1);
    // Its one allowed stream is now taken.
    await expect(
      streams.open(
        request,
        sseSinkOf(new FakeResponse() as unknown as Response),
      ),
    ).rejects.toBeInstanceOf(TooManyStreamsError);
    next.destroy();
  });

  it("sends an asset's event with its url made for the origin the stream was opened at", async () => {
    let subscriber: FeedSubscriber | undefined;
    const { streams } = streamsWith((s) => {
      subscriber = s;
      return Promise.resolve(0);
    });
    const response = new FakeResponse();
    await streams.open(request, sseSinkOf(response as unknown as Response));
    const asset = {
      id: 'a1',
      projectId: 'p1',
      sectionId: 's1',
      kind: 'logo',
      contentType: 'image/png',
      byteSize: 3,
      sha256: 'f'.repeat(64),
      prompt: 'A logo',
      model: 'm',
      createdAt: '2026-11-29T00:00:00.000Z',
    };
    subscriber!.deliver({
      id: '7',
      type: 'asset.created',
      projectId: 'p1',
      userId: 'u1',
      at: '2026-11-29T00:00:00.000Z',
      data: {
        assetId: 'a1',
        sectionId: 's1',
        kind: 'logo',
        asset,
        etag: '"3"',
      },
    });
    const frame = response.written.find((chunk) => chunk.startsWith('id: 7'));
    const data = JSON.parse(frame!.split('\ndata: ')[1]) as {
      data: { asset: { url: string } };
    };
    expect(data.data.asset.url).toBe(
      'https://api.example.com/api/projects/p1/assets/a1/content',
    );
    response.destroy();
  });
});
