import { custom } from 'zod/mini';
import { KEY_EVENT_LOG_METHODS } from './key-event-log.js';
import { KEY_LOOKUP_METHODS } from './key-lookup.js';
import { KEY_WRITES_METHODS } from './key-writes.js';
import { PENDING_REVOCATION_QUEUE_METHODS } from './pending-revocation-queue.js';

/**
 * The parts a key store may offer, each with its methods: the one list the factories check a
 * store against. A new part (a new contract in its own file) is one more row.
 * @internal
 */
export const KEY_STORE_PARTS = {
  KeyLookup: KEY_LOOKUP_METHODS,
  KeyWrites: KEY_WRITES_METHODS,
  KeyEventLog: KEY_EVENT_LOG_METHODS,
  PendingRevocationQueue: PENDING_REVOCATION_QUEUE_METHODS,
} as const;

/** The name of a part of {@link KEY_STORE_PARTS}. @internal */
export type KeyStorePart = keyof typeof KEY_STORE_PARTS;

/** The methods of `parts` that `value` lacks, as `method (Part)`. */
function missingMethods(value: unknown, parts: readonly KeyStorePart[]): string[] {
  const methods = parts.flatMap((part) => KEY_STORE_PARTS[part].map((method) => ({ part, method })));
  const seen = new Set<string>();
  const missing: string[] = [];
  for (const { part, method } of methods) {
    if (seen.has(method)) continue;
    seen.add(method);
    const present = typeof value === 'object' && value !== null && typeof (value as Record<string, unknown>)[method] === 'function';
    if (!present) missing.push(parts.length === 1 ? method : `${method} (${part})`);
  }
  return missing;
}

/** `A`, `A and B`, `A, B and C`. */
function listed(names: readonly string[]): string {
  return names.length < 2 ? names.join('') : `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;
}

/**
 * The schema of a factory's store option that must offer `parts`: a store lacking a method is a
 * `TypeError` at creation naming each missing method of an object that has some, e.g.
 * `options.keyStore: expected a store with KeyLookup: missing findActive, now`.
 * @internal
 */
export const keyStoreOption = <T>(parts: readonly KeyStorePart[]) =>
  custom<T>((value) => missingMethods(value, parts).length === 0, {
    error: (issue) =>
      typeof issue.input === 'object' && issue.input !== null && Object.keys(issue.input).length > 0
        ? `expected a store with ${listed(parts)}: missing ${missingMethods(issue.input, parts).join(', ')}`
        : `expected a store with ${listed(parts)}`,
  });
