import { Module, OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { Server } from 'node:http';
import type { Duplex } from 'node:stream';
import type { ErrorCode } from '../failures/error-codes';

/** What Node's HTTP parser reports, and the answer each gets. */
const ANSWERS: Record<string, [number, string, string, ErrorCode]> = {
  HPE_HEADER_OVERFLOW: [
    431,
    'Request Header Fields Too Large',
    'Request headers are too large',
    'headers_too_large',
  ],
  ERR_HTTP_REQUEST_TIMEOUT: [
    408,
    'Request Timeout',
    'Request timed out',
    'body_timeout',
  ],
};
const BAD_REQUEST: [number, string, string, ErrorCode] = [
  400,
  'Bad Request',
  'Bad request',
  'bad_request',
];

/**
 * A request Node's HTTP parser rejects (a malformed request line, a broken
 * chunked body, conflicting Content-Lengths, headers over the size limit)
 * never reaches Express: Node answers it itself, with an empty body. Here
 * it gets a JSON body like every other answer (docs/api.md, "Answers shared by
 * every route"), and the connection is closed, as Node does.
 */
@Module({})
export class ProtocolErrorsModule implements OnModuleInit {
  constructor(private readonly adapterHost: HttpAdapterHost) {}

  onModuleInit(): void {
    const server = this.adapterHost.httpAdapter.getHttpServer() as Server;
    server.on('clientError', answerClientError);
  }
}

function answerClientError(
  error: Error & { code?: string },
  socket: Duplex,
): void {
  // A reset connection, or one whose answer has begun, cannot take one.
  if (error.code === 'ECONNRESET' || !socket.writable) {
    socket.destroy();
    return;
  }
  const [status, reason, text, code] = ANSWERS[error.code ?? ''] ?? BAD_REQUEST;
  const body = JSON.stringify({ error: text, code });
  socket.end(
    `HTTP/1.1 ${status} ${reason}\r\n` +
      'Content-Type: application/json; charset=utf-8\r\n' +
      `Content-Length: ${Buffer.byteLength(body)}\r\n` +
      'Connection: close\r\n\r\n' +
      body,
  );
}
