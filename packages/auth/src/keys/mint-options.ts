import * as z from 'zod/mini';
import { InvalidRequestError } from '../errors/invalid-request-error.js';
import { lazySchema } from '../options/parse-options.js';
import { parseRequestBody } from '../options/parse-request-body.js';

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
   * `maxKeyLifetimeSeconds`, at most that far ahead. Default: that far ahead, or never when it is unset.
   */
  readonly expiresAt?: string;
}

/** Mint options once checked: the name, and the expiry as a date (not yet checked against the clock). @internal */
export interface ParsedMintOptions {
  readonly name: string | null;
  readonly expiresAt: Date | null;
}

/**
 * An RFC 3339 date-time with a `Z` or numeric offset (section 5.6), seconds required, fraction
 * optional: the shape only; {@link isCalendarDay} refuses a day the month does not have.
 */
const RFC3339_DATE_TIME =
  /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])T([01]\d|2[0-3]):[0-5]\d:[0-5]\d(\.\d+)?(Z|[+-]([01]\d|2[0-3]):[0-5]\d)$/;
const EXPIRES_AT_FORMAT = 'expiresAt must be an RFC 3339 date-time with an offset, e.g. 2026-12-31T23:59:59Z';
/** Whether the `YYYY-MM-DD` an RFC 3339 date-time starts with is a real day (`Date` would roll `02-30` over to March). */
function isCalendarDay(dateTime: string): boolean {
  const year = Number(dateTime.slice(0, 4));
  const month = Number(dateTime.slice(5, 7));
  return Number(dateTime.slice(8, 10)) <= new Date(Date.UTC(year, month, 0)).getUTCDate();
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
    expiresAt: z.optional(z.string({ error: EXPIRES_AT_FORMAT })),
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
  const { name, expiresAt } = parseRequestBody(mintOptionsSchema(), body, {
    request: 'invalid key request',
    expected: EXPECTED,
    unknownField: 'only "name" and "expiresAt" may be sent',
  });
  const expiry = expiresAt === undefined ? null : new Date(expiresAt);
  if (expiry !== null && !(RFC3339_DATE_TIME.test(expiresAt!) && isCalendarDay(expiresAt!) && !Number.isNaN(expiry.getTime()))) {
    throw new InvalidRequestError(`invalid key request: ${EXPIRES_AT_FORMAT}`);
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
