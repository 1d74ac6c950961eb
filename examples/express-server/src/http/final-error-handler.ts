import { STATUS_CODES } from 'node:http';
import type { ErrorRequestHandler } from 'express';
import { HttpError } from './http-error.js';

interface BodyParserError {
  status?: unknown;
  statusCode?: unknown;
  type?: unknown;
  expose?: unknown;
  limit?: unknown;
}

function clientStatus(err: BodyParserError): number | null {
  const status = typeof err.status === 'number' ? err.status : typeof err.statusCode === 'number' ? err.statusCode : null;
  return status !== null && status >= 400 && status < 500 ? status : null;
}

function messageOf(err: Error & BodyParserError, status: number): string {
  switch (err.type) {
    case 'entity.too.large':
      return `the request body must be at most ${String(err.limit)} bytes`;
    case 'entity.parse.failed':
      return 'the request body must be JSON';
    case 'encoding.unsupported':
      return 'compressed request bodies are not accepted; send the content as is';
  }
  if (err.expose === true && typeof err.message === 'string' && err.message.length > 0) return err.message;
  return (STATUS_CODES[status] ?? 'error').toLowerCase();
}

/**
 * The last error handler: every answer is JSON `{"error": …}`. Bad input (body parser errors,
 * undecodable paths, {@link HttpError}) keeps its 4xx; anything else is a logged 500 that says
 * nothing about the cause. Drops-auth errors never get here: `auth.errorHandler()` answers them.
 */
export function finalErrorHandler(): ErrorRequestHandler {
  return (err: Error & BodyParserError, req, res, next) => {
    if (res.headersSent) {
      next(err);
      return;
    }
    if (err instanceof HttpError) {
      res.status(err.status).set(err.headers).json({ error: err.message });
      return;
    }
    const status = clientStatus(err);
    if (status !== null) {
      res.status(status).json({ error: messageOf(err, status) });
      return;
    }
    req.log?.error({ err }, 'request failed');
    res.status(500).json({ error: 'internal error' });
  };
}
