import { custom, safeParse } from 'zod/mini';
import type { $ZodIssue, $ZodType, output } from 'zod/v4/core';

/**
 * Builds a schema on first use and keeps it. Schemas are never built at module top level: an app
 * that imports only `keyIdOf` must not pay for zod, and bundlers drop what is never called.
 */
export function lazySchema<T>(build: () => T): () => T {
  let schema: T | undefined;
  return () => (schema ??= build());
}

const ARTICLE: Record<string, string> = { object: 'an object', array: 'an array', int: 'an integer' };

function expected(type: string): string {
  return ARTICLE[type] ?? `a ${type}`;
}

function describeIssue(issue: $ZodIssue): string {
  switch (issue.code) {
    case 'unrecognized_keys':
      return `unknown option${issue.keys.length > 1 ? 's' : ''} ${issue.keys.map((k) => `"${k}"`).join(', ')}`;
    case 'invalid_type':
      return `expected ${expected(issue.expected)}`;
    case 'invalid_union': {
      const types = issue.errors.flatMap((branch) =>
        branch.map((i) => (i.code === 'invalid_type' ? expected(i.expected) : describeIssue(i))),
      );
      return `expected ${[...new Set(types)].join(' or ')}`;
    }
    case 'invalid_value':
      return `expected one of ${issue.values.map((v) => JSON.stringify(v)).join(', ')}`;
    case 'too_small':
      if (issue.origin === 'string')
        return Number(issue.minimum) === 1 ? 'must not be empty' : `must be at least ${issue.minimum} characters`;
      if (issue.origin === 'array') return `must hold at least ${issue.minimum} item${Number(issue.minimum) === 1 ? '' : 's'}`;
      return `must be at least ${issue.minimum}`;
    case 'too_big':
      if (issue.origin === 'string') return `must be at most ${issue.maximum} characters`;
      if (issue.origin === 'array') return `must hold at most ${issue.maximum} items`;
      return `must be at most ${issue.maximum}`;
    default:
      return issue.message;
  }
}

/** `options.audience.0`-style path of an issue. */
function pathOf(root: string, issue: $ZodIssue): string {
  return [root, ...issue.path.map(String)].join('.');
}

/**
 * Parses a factory's options with its schema; a caller mistake is a `TypeError` naming the
 * factory and the option, e.g. `createAuthenticator: options.keyStore: expected a KeyStore`, never
 * zod's raw JSON. Unknown options are refused by the schemas (strict objects).
 */
export function parseOptions<S extends $ZodType>(schema: S, value: unknown, where: string, root = 'options'): output<S> {
  const result = safeParse(schema, value);
  if (result.success) return result.data;
  const details = result.error.issues.map((issue) => `${pathOf(root, issue)}: ${describeIssue(issue)}`);
  throw new TypeError(`${where}: ${details.join('; ')}`);
}

/**
 * The schema of an option that must be a function (`clock`, `fetch`, a hook): one definition for
 * every factory, so the check and its message are the same everywhere (and bundled once).
 * @internal
 */
export const functionOption = <T>() => custom<T>((v) => typeof v === 'function', { error: 'expected a function' });
