import {
  Injectable,
  type CallHandler,
  type ExecutionContext,
  type NestInterceptor,
} from '@nestjs/common';
import type { Response } from 'express';
import { map, type Observable } from 'rxjs';
import { Reply } from './reply';

/**
 * The one place a handler's Reply meets the response: its status and
 * headers are applied and its body is handed on for Nest to send. Any
 * other result passes through untouched.
 */
@Injectable()
export class ReplyInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    return next
      .handle()
      .pipe(
        map((result: unknown) =>
          result instanceof Reply
            ? result.applyTo(context.switchToHttp().getResponse<Response>())
            : result,
        ),
      );
  }
}
