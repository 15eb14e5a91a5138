import { describeStartUpFailure } from './startup-logger';

/** An error as Node's net and fs modules make them. */
function systemError(
  message: string,
  fields: Record<string, string | number>,
): Error {
  return Object.assign(new Error(message), fields);
}

describe('describeStartUpFailure', () => {
  it('names the database and its address when a connection is refused', () => {
    const error = systemError('connect ECONNREFUSED 10.0.0.12:5432', {
      code: 'ECONNREFUSED',
      syscall: 'connect',
      address: '10.0.0.12',
      port: 5432,
    });
    expect(describeStartUpFailure(error)).toBe(
      'the database at 10.0.0.12:5432 could not be reached (ECONNREFUSED), and start-up does not retry',
    );
  });

  it('names the database without an address when the error has none', () => {
    const error = systemError('getaddrinfo ENOTFOUND db', {
      code: 'ENOTFOUND',
      syscall: 'getaddrinfo',
    });
    expect(describeStartUpFailure(error)).toBe(
      'the database could not be reached (ENOTFOUND), and start-up does not retry',
    );
  });

  it('names the port, not the database, when a listener cannot bind', () => {
    const error = systemError(
      'listen EADDRINUSE: address already in use 127.0.0.1:3001',
      {
        code: 'EADDRINUSE',
        syscall: 'listen',
        address: '127.0.0.1',
        port: 3001,
      },
    );
    const text = describeStartUpFailure(error);
    expect(text).toBe(
      "nothing could listen on 127.0.0.1:3001 (EADDRINUSE): the port is taken or the address is not this machine's (PORT and HOST, or SITES_PORT and SITES_HOST)",
    );
    expect(text).not.toContain('database');
  });

  it('names the file and the operation when the file system refuses', () => {
    const error = systemError("EACCES: permission denied, mkdir '/data'", {
      code: 'EACCES',
      syscall: 'mkdir',
      path: '/data',
    });
    expect(describeStartUpFailure(error)).toBe(
      'mkdir of /data failed (EACCES)',
    );
  });

  it('gives any other error its name and message', () => {
    expect(describeStartUpFailure(new TypeError('bad value'))).toBe(
      'TypeError: bad value',
    );
    expect(
      describeStartUpFailure(
        systemError('database is locked', { code: 'SQLITE_BUSY' }),
      ),
    ).toBe('Error: database is locked');
    expect(describeStartUpFailure('a string')).toBe('a string');
  });
});
