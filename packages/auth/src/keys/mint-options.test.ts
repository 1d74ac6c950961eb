import { describe, expect, it } from 'vitest';
import { InvalidRequestError } from '../errors/invalid-request-error.js';
import { mintOptionsFromBody } from './mint-options.js';

describe('mintOptionsFromBody', () => {
  it('turns a parsed request body into mint options', () => {
    expect(mintOptionsFromBody(undefined)).toEqual({});
    expect(mintOptionsFromBody(null)).toEqual({});
    expect(mintOptionsFromBody({})).toEqual({});
    expect(mintOptionsFromBody({ name: '  ci-main ' })).toEqual({ name: 'ci-main' });
  });

  it.each([
    [{ name: 42 }, 'invalid key request: name must be a string'],
    [{ name: 'ok', admin: true }, 'invalid key request: only "name" and "expiresAt" may be sent'],
    ['ci-main', 'invalid key request: expected {"name"?: string, "expiresAt"?: RFC 3339 date-time}'],
    [[1], 'invalid key request: expected {"name"?: string, "expiresAt"?: RFC 3339 date-time}'],
  ])('refuses %j with a 400 that says why', (body, message) => {
    const error = (() => {
      try {
        return mintOptionsFromBody(body);
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(InvalidRequestError);
    expect((error as InvalidRequestError).message).toBe(message);
  });
});
