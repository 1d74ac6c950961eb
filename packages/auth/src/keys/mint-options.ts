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
  /**
   * When the key stops authenticating: an RFC 3339 date-time with a `Z` or numeric offset, e.g.
   * `2026-12-31T23:59:59Z`, strictly in the future and, when the operator sets
   * `maxKeyLifetimeSeconds`, at most that far ahead. Default: the key never expires.
   */
  readonly expiresAt?: string;
}

/** Mint options once checked: the name, and the expiry as a date (not yet checked against the clock). @internal */
export interface ParsedMintOptions {
  readonly name: string | null;
  readonly expiresAt: Date | null;
}

const EXPECTED = 'expected {"name"?: string, "expiresAt"?: RFC 3339 date-time}';
const NO_OPTIONS: ParsedMintOptions = Object.freeze({ name: null, expiresAt: null });

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
    expiresAt: z.optional(
      z.iso.datetime({ offset: true, error: 'expiresAt must be an RFC 3339 date-time with an offset, e.g. 2026-12-31T23:59:59Z' }),
    ),
  }),
);

/**
 * Checks mint options that may come straight from a request body (any JSON value): nothing
 * (`undefined`, `null`, `''`) means no options; anything but `{ "name"?: string, "expiresAt"?:
 * string }` with an RFC 3339 `expiresAt` is an `InvalidRequestError` (400), never a 5xx. Whether
 * the expiry is in the future is the key manager's check (it holds the clock).
 * @internal
 */
export function parseMintOptions(body: unknown): ParsedMintOptions {
  if (body === undefined || body === null || body === '') return NO_OPTIONS;
  const parsed = z.safeParse(mintOptionsSchema(), body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const message =
      issue?.code === 'unrecognized_keys'
        ? 'only "name" and "expiresAt" may be sent'
        : issue?.path.length === 0
          ? EXPECTED
          : issue?.message;
    throw new InvalidRequestError(`invalid key request: ${message ?? EXPECTED}`);
  }
  const { name, expiresAt } = parsed.data;
  const expiry = expiresAt === undefined ? null : new Date(expiresAt);
  if (expiry !== null && Number.isNaN(expiry.getTime())) {
    throw new InvalidRequestError('invalid key request: expiresAt is not a date');
  }
  return { name: name ?? null, expiresAt: expiry };
}

/**
 * Turns a parsed JSON request body into {@link MintOptions} for `KeyManager.mint`, or an
 * `InvalidRequestError` (400) when it is not `{ "name"?: string, "expiresAt"?: string }`. What the
 * `/keys` routers call.
 * @internal
 */
export function mintOptionsFromBody(body: unknown): MintOptions {
  const { name, expiresAt } = parseMintOptions(body);
  return {
    ...(name === null ? {} : { name }),
    ...(expiresAt === null ? {} : { expiresAt: (body as { expiresAt: string }).expiresAt }),
  };
}
