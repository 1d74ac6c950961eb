import * as z from 'zod/mini';
import { DEFAULT_KEYS_BODY_LIMIT } from '../http/read-json-body.js';
import { lazySchema, parseOptions } from '../options/parse-options.js';

/** Options of the `/keys` routes (`keysHandler`, and `keysRouter` of every adapter). */
export interface KeyRoutesOptions {
  /** Largest `POST /keys` body read, in bytes; over it a 413. Default 16 384. */
  bodyLimit?: number;
}

/** Options after parsing, every default filled in. @internal */
export interface ResolvedKeyRoutesOptions {
  readonly bodyLimit: number;
}

const schema = /* @__PURE__ */ lazySchema(() => z.strictObject({ bodyLimit: z.optional(z.int().check(z.positive())) }));

/**
 * Parses the options once, for the factory named `where`; a mistake (an unknown option included)
 * is a `TypeError` there.
 * @internal
 */
export function parseKeyRoutesOptions(options: unknown, where: string): ResolvedKeyRoutesOptions {
  const o = parseOptions(schema(), options ?? {}, where);
  return { bodyLimit: o.bodyLimit ?? DEFAULT_KEYS_BODY_LIMIT };
}
