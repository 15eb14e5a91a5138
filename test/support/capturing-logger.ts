import type { LoggerService } from '@nestjs/common';

/** Collects every log line an app writes, for a test to read. */
export class CapturingLogger implements LoggerService {
  readonly lines: string[] = [];
  private keep = (...parts: unknown[]) => {
    this.lines.push(
      parts
        .map((p) => (typeof p === 'string' ? p : JSON.stringify(p)))
        .join(' '),
    );
  };
  log = this.keep;
  error = this.keep;
  warn = this.keep;
  debug = this.keep;
  verbose = this.keep;
  fatal = this.keep;
}
