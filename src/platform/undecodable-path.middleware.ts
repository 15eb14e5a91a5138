import type { NextFunction, Request, Response } from 'express';

function decodes(segment: string): boolean {
  try {
    decodeURIComponent(segment);
    return true;
  } catch {
    return false;
  }
}

/**
 * Express answers a path segment with a broken percent-escape ("%", "%zz",
 * "%E0%A4%A") with its own 400 "Failed to decode param '…'" before any route
 * is known: a status no route documents, quoting the request back. Such a
 * segment is taken literally instead (its "%" escaped as "%25"), so
 * GET /api/projects/%zz looks up the id "%zz" and answers 404 like any
 * other unknown id, and PATCH/DELETE answer their documented 500.
 */
export function undecodablePathMiddleware(
  request: Request,
  _response: Response,
  next: NextFunction,
): void {
  const url = request.url;
  const queryAt = url.indexOf('?');
  const path = queryAt < 0 ? url : url.slice(0, queryAt);
  if (path.includes('%')) {
    const segments = path.split('/');
    if (!segments.every(decodes)) {
      const fixed = segments
        .map((segment) =>
          decodes(segment) ? segment : segment.replace(/%/g, '%25'),
        )
        .join('/');
      request.url = queryAt < 0 ? fixed : fixed + url.slice(queryAt);
    }
  }
  next();
}
