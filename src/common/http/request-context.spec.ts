import { EventEmitter } from 'node:events';
import type { Request, Response } from 'express';
import { ClientClosedRequestError } from '../../failures/client-closed-request.error';
import { getRequestContext, startRequestContext } from './request-context';

function exchange(host = 'api.example.com') {
  const response = Object.assign(new EventEmitter(), {
    closed: false,
    writableFinished: false,
  });
  const request = {
    host,
    protocol: 'http',
    socket: { remoteAddress: '::ffff:203.0.113.7', destroyed: false },
  };
  return {
    request: request as unknown as Request,
    response: response as unknown as Response & typeof response,
  };
}

describe('CallContext', () => {
  it('is kept on the request, with the client key of its caller', () => {
    const { request, response } = exchange();
    const caller = { userId: 'alice', admin: false };
    const made = startRequestContext(request, response, caller, undefined);
    expect(getRequestContext(request)).toBe(made);
    expect(made).toMatchObject({
      caller,
      address: '203.0.113.7',
      clientKey: 'user:alice',
    });
    const anonymous = exchange();
    expect(
      startRequestContext(
        anonymous.request,
        anonymous.response,
        undefined,
        undefined,
      ).clientKey,
    ).toBe('ip:203.0.113.7');
  });

  it('watches for a client that leaves only once the signal is asked for', () => {
    const { request, response } = exchange();
    const context = startRequestContext(request, response, undefined, '');
    expect(response.listenerCount('close')).toBe(0);
    const { signal } = context;
    expect(context.signal).toBe(signal);
    expect(response.listenerCount('close')).toBe(1);
    response.emit('close');
    expect(signal.aborted).toBe(true);
    expect(signal.reason).toBeInstanceOf(ClientClosedRequestError);
  });

  it('does not abort for a response that was sent in full', () => {
    const { request, response } = exchange();
    const { signal } = startRequestContext(request, response, undefined, '');
    response.writableFinished = true;
    response.emit('close');
    expect(signal.aborted).toBe(false);
  });

  it('gives the configured origin, else the Host, else relative URLs', () => {
    const configured = exchange('evil.example');
    expect(
      startRequestContext(
        configured.request,
        configured.response,
        undefined,
        'https://api.example.com',
      ).baseUrl(),
    ).toBe('https://api.example.com');
    const unusable = exchange('evil.example/path');
    const context = startRequestContext(
      unusable.request,
      unusable.response,
      undefined,
      undefined,
    );
    expect(() => context.baseUrl()).toThrow();
    expect(context.baseUrlOrRelative()).toBe('');
  });
});
