import type { Response } from 'express';
import type { EventSink } from '../event-sink';

/**
 * A text/event-stream answer as an EventSink: the one place a live
 * stream's bytes meet the HTTP response, as the JSON stream responder is
 * for streamed JSON. Nothing is sent until the stream begins, so a refusal
 * before that is still an ordinary JSON error.
 */
export function sseSinkOf(response: Response): EventSink {
  return {
    begin(first: string): void {
      response.status(200);
      response.setHeader('Content-Type', 'text/event-stream; charset=utf-8');
      // Never stored, never transformed (compressed) by a proxy on the way.
      response.setHeader('Cache-Control', 'no-store, no-transform');
      // nginx-style proxies would otherwise buffer the stream.
      response.setHeader('X-Accel-Buffering', 'no');
      response.flushHeaders();
      response.write(first);
    },
    get closed(): boolean {
      return response.destroyed;
    },
    get clientGone(): boolean {
      return !response.socket || response.socket.destroyed;
    },
    write: (text: string) => void response.write(text),
    get unsentBytes(): number {
      return response.writableLength;
    },
    get needsDrain(): boolean {
      return response.writableNeedDrain;
    },
    onDrainOrClose(listener: () => void): () => void {
      response.on('drain', listener);
      response.on('close', listener);
      return () => {
        response.off('drain', listener);
        response.off('close', listener);
      };
    },
    onClose: (listener: () => void) => void response.on('close', listener),
    end: () => void response.end(),
    reset(): void {
      response.socket?.resetAndDestroy();
      response.destroy();
    },
    destroy: () => void response.destroy(),
  };
}
