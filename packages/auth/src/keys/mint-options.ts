import * as z from 'zod/mini';
import { InvalidRequestError } from '../errors/invalid-request-error.js';
import { lazySchema } from '../options/parse-options.js';

/** Longest key name accepted. */
export const MAX_KEY_NAME_LENGTH = 64;

/** Options of `KeyManager.mint`: what a `POST /keys` body may hold. */
export interface MintOptions {
  /**
   * A label for the key, e.g. `ci-main`: trimmed, 1 to {@link MAX_KEY_NAME_LENGTH} characters, no
   * control characters. Default: no name (`null`).
   */
  readonly name?: string;
}

const mintOptionsSchema = /* @__PURE__ */ lazySchema(() =>
  z.strictObject({
    name: z.optional(
      z.string({ error: 'name must be a string' }).check(
        z.trim(),
        z.minLength(1, { error: 'name must not be empty' }),
        z.maxLength(MAX_KEY_NAME_LENGTH, { error: `name must be at most ${MAX_KEY_NAME_LENGTH} characters` }),
        // eslint-disable-next-line no-control-regex
        // biome-ignore lint/suspicious/noControlCharactersInRegex: a name with control characters is refused.
        z.regex(/^[^\u0000-\u001f\u007f]*$/, { error: 'name must not contain control characters' }),
      ),
    ),
  }),
);

/**
 * Checks mint options that may come straight from a request body (any JSON value): nothing
 * (`undefined`, `null`, `''`) means no options; anything but `{ "name"?: string }` is an
 * `InvalidRequestError` (400), never a 5xx. Answers the key name, or `null`.
 * @internal
 */
export function parseMintOptions(body: unknown): string | null {
  if (body === undefined || body === null || body === '') return null;
  const parsed = z.safeParse(mintOptionsSchema(), body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const message =
      issue?.code === 'unrecognized_keys'
        ? 'only "name" may be sent'
        : issue?.path.length === 0
          ? 'expected {"name": string}'
          : issue?.message;
    throw new InvalidRequestError(`invalid key request: ${message ?? 'expected {"name": string}'}`);
  }
  return parsed.data.name ?? null;
}

/**
 * Turns a parsed JSON request body into {@link MintOptions} for `KeyManager.mint`, or an
 * `InvalidRequestError` (400) when it is not `{ "name"?: string }`. What the `/keys` routers call.
 * @internal
 */
export function mintOptionsFromBody(body: unknown): MintOptions {
  const name = parseMintOptions(body);
  return name === null ? {} : { name };
}
