import { safeParse } from 'zod/mini';
import type { $ZodType, output } from 'zod/v4/core';
import { InvalidRequestError } from '../errors/invalid-request-error.js';

/** What a {@link parseRequestBody} 400 says, e.g. `invalid key request: name must be a string`. @internal */
export interface RequestBodyMessages {
  /** What the request was, the start of every message: `invalid key request`. */
  readonly request: string;
  /** The body's shape, when it is not an object of the schema's fields: `expected {"name"?: string}`. */
  readonly expected: string;
  /** When the body has a field the schema does not know. Default {@link expected}. */
  readonly unknownField?: string;
}

/**
 * Checks a request body (any JSON value) with a zod schema of strict objects and answers its data,
 * or throws an `InvalidRequestError` (400) for its first issue: a field the schema does not know,
 * a body that is no object (the `expected` shape), or a field's own message (the schema's `error`).
 * One rule for every route that takes options in its body, so their 400s read alike.
 * @internal
 */
export function parseRequestBody<S extends $ZodType>(schema: S, body: unknown, messages: RequestBodyMessages): output<S> {
  const parsed = safeParse(schema, body);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const message =
    issue?.code === 'unrecognized_keys'
      ? (messages.unknownField ?? messages.expected)
      : issue === undefined || issue.path.length === 0
        ? messages.expected
        : issue.message;
  throw new InvalidRequestError(`${messages.request}: ${message}`);
}
