import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { InvalidRequestError } from '../errors/invalid-request-error.js';
import { parseRequestBody, type RequestBodyMessages } from './parse-request-body.js';

const schema = z.strictObject({ size: z.optional(z.int({ error: 'size must be an integer' })) });
const messages: RequestBodyMessages = {
  request: 'invalid thing request',
  expected: 'expected {"size"?: integer}',
  unknownField: 'only "size" may be sent',
};

function refusal(body: unknown, options: RequestBodyMessages = messages): unknown {
  try {
    parseRequestBody(schema, body, options);
  } catch (error) {
    return error;
  }
  throw new Error('expected a refusal');
}

describe('parseRequestBody', () => {
  it('answers the data of a body the schema accepts', () => {
    expect(parseRequestBody(schema, { size: 3 }, messages)).toEqual({ size: 3 });
    expect(parseRequestBody(schema, {}, messages)).toEqual({});
  });

  it.each([
    ['a body that is no object', [1], 'invalid thing request: expected {"size"?: integer}'],
    ['a field the schema does not know', { size: 1, admin: true }, 'invalid thing request: only "size" may be sent'],
    ["a bad field (the schema's own message)", { size: 'big' }, 'invalid thing request: size must be an integer'],
  ])('refuses %s with a 400 that says why', (_, body, message) => {
    const error = refusal(body);
    expect(error).toBeInstanceOf(InvalidRequestError);
    expect((error as InvalidRequestError).status).toBe(400);
    expect((error as InvalidRequestError).message).toBe(message);
  });

  it('says the expected shape for an unknown field when no other message is given', () => {
    const { unknownField: _, ...withoutUnknown } = messages;
    expect((refusal({ admin: true }, withoutUnknown) as Error).message).toBe('invalid thing request: expected {"size"?: integer}');
  });
});
