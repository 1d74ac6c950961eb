import { custom } from 'zod/mini';

/**
 * The schema of a factory's store option that must offer `parts` (each part's name and its
 * method list, e.g. `{ KeyLookup: KEY_LOOKUP_METHODS }`): a store lacking a method is a
 * `TypeError` at creation naming each missing method with its part, e.g. `options.keyStore:
 * expected a store with KeyLookup: missing KeyLookup.now, KeyLookup.recordUse`.
 * @internal
 */
export const keyStoreOption = <T>(parts: Readonly<Record<string, readonly string[]>>) => {
  const missing = (value: unknown): string[] =>
    Object.entries(parts).flatMap(([part, methods]) =>
      methods.filter((m) => typeof (value as Record<string, unknown> | null)?.[m] !== 'function').map((m) => `${part}.${m}`),
    );
  return custom<T>((value) => missing(value).length === 0, {
    error: (issue) => `expected a store with ${Object.keys(parts).join(', ')}: missing ${missing(issue.input).join(', ')}`,
  });
};
