import * as z from 'zod/mini';
import { InvalidRequestError } from '../errors/invalid-request-error.js';
import { lazySchema } from '../options/parse-options.js';

/** Most secrets one `POST /credentials/revoke` may carry. */
export const MAX_CREDENTIALS_PER_REVOKE = 1000;

/** A body `POST /credentials/revoke` takes, quoted when a body is not JSON. */
export const REVOKE_CREDENTIALS_EXAMPLE = '{"credentials": ["hp_…"]}';

const EXPECTED = `the request body must be {"credentials": [...]} with 1 to ${MAX_CREDENTIALS_PER_REVOKE} secrets`;

const bodySchema = /* @__PURE__ */ lazySchema(() =>
  z.strictObject({
    // Entries of any type: those not shaped like a key are ignored, as they would be as strings.
    credentials: z.array(z.unknown()).check(z.minLength(1), z.maxLength(MAX_CREDENTIALS_PER_REVOKE)),
  }),
);

/**
 * The secrets of a `POST /credentials/revoke` body (parsed JSON): `{"credentials": [...]}` with 1
 * to 1000 entries, else an `InvalidRequestError` (400) that says what is expected, never a piece of
 * the body.
 * @internal
 */
export function credentialsOfRevokeRequest(body: unknown): readonly unknown[] {
  const parsed = z.safeParse(bodySchema(), body);
  if (!parsed.success) throw new InvalidRequestError(EXPECTED);
  return parsed.data.credentials;
}
