import { Inject, Injectable, NestMiddleware } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import { tasksConfig, type TasksConfig } from './tasks.config';

/** What a worker still answers: its probes and its metrics. */
const WORKER_PATHS = /^\/(health\/(live|ready)|metrics)$/;

/**
 * PROCESS_ROLE=worker: the process runs tasks and answers only its
 * probes and /metrics, so a worker Deployment scales apart from the API
 * and is never sent an API request by mistake (404 to anything else).
 */
@Injectable()
export class WorkerRoleMiddleware implements NestMiddleware {
  private readonly worker: boolean;

  constructor(@Inject(tasksConfig.KEY) config: TasksConfig) {
    this.worker = config.role === 'worker';
  }

  use(request: Request, response: Response, next: NextFunction): void {
    // originalUrl: a middleware mounted by Nest sees `path` relative to it.
    const path = request.originalUrl.split('?', 1)[0];
    if (!this.worker || WORKER_PATHS.test(path)) return next();
    response.status(404).json({ error: 'Not found', code: 'not_found' });
  }
}
