import { Injectable, NestMiddleware } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import { ShutdownState } from './shutdown-state';

/**
 * While the process drains, every response asks its client to close the
 * connection, so keep-alive clients reconnect to a replica that stays.
 */
@Injectable()
export class DrainingMiddleware implements NestMiddleware {
  constructor(private readonly shutdown: ShutdownState) {}

  use(_request: Request, response: Response, next: NextFunction): void {
    if (this.shutdown.draining) response.setHeader('Connection', 'close');
    next();
  }
}
