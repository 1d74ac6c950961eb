/**
 * What an error costs to make: the uniform 401 is built for every refused request (a flood of
 * random keys included), so it captures no stack trace; the other errors keep theirs. Brands are
 * worked out once per class, and `instanceof` / `isDropsAuthError` still see through subclasses.
 */
import { describe, expect, it } from 'vitest';
import { DropsAuthError, isDropsAuthError } from './drops-auth-error.js';
import { UnauthenticatedError } from './unauthenticated-error.js';
import { UnavailableError } from './unavailable-error.js';

describe('error construction', () => {
  it('builds the uniform 401 without a stack trace, naming it, and leaves Error.stackTraceLimit as it was', () => {
    const limit = Error.stackTraceLimit;
    const error = new UnauthenticatedError('unknown_key');
    expect(Error.stackTraceLimit).toBe(limit);
    expect(error.stack).toBe(`UnauthenticatedError: ${error.message}`);
    expect(error.name).toBe('UnauthenticatedError');
    expect(error.reason).toBe('unknown_key');
  });

  it('keeps the stack trace of the errors that are faults (a 503)', () => {
    expect(new UnavailableError('key_store').stack).toMatch(/\n\s+at /);
  });

  it('recognises an application subclass by its nearest brand, from its first instance on', () => {
    class AppRefusal extends UnauthenticatedError {}
    const error = new AppRefusal('not_permitted');
    expect(error).toBeInstanceOf(AppRefusal);
    expect(error).toBeInstanceOf(UnauthenticatedError);
    expect(error).toBeInstanceOf(DropsAuthError);
    expect(isDropsAuthError(error)).toBe(true);
    expect(error.name).toBe('AppRefusal');
    expect(new UnavailableError('key_store')).not.toBeInstanceOf(UnauthenticatedError);
    expect(Object.getOwnPropertySymbols(error)).toEqual([]);
  });
});
