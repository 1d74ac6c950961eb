import express, { type RequestHandler } from 'express';
import { badRequest } from './http-error.js';

/**
 * Reads the raw body (any content type) into `req.body` as a Buffer, at most `limit` bytes:
 * over it the parser's 413, compressed bodies a 415. An empty body is a 400.
 */
export function rawContent(limit: number): RequestHandler[] {
  return [
    express.raw({ type: () => true, limit, inflate: false }),
    (req, _res, next) => {
      if (!Buffer.isBuffer(req.body) || req.body.length === 0) {
        next(badRequest("the request body is the drop's content, and it is empty"));
        return;
      }
      next();
    },
  ];
}

/** Reads a small JSON body (any content type): malformed JSON is a 400, never a 5xx. */
export function smallJson(): RequestHandler {
  return express.json({ type: () => true, limit: '16kb', strict: false });
}

const CONTENT_TYPE = /^[\x21-\x7e]+\/[\x20-\x7e]+$/;

/** The content type a drop is stored and served with. */
export function contentTypeOf(header: string | undefined): string | null {
  if (header === undefined || header.trim() === '') return 'application/octet-stream';
  const value = header.trim();
  return value.length <= 255 && CONTENT_TYPE.test(value) ? value : null;
}
