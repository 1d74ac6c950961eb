import * as z from 'zod/mini';
import { lazySchema } from '../options/parse-options.js';
import { parseRequestBody } from '../options/parse-request-body.js';

/** Default `graceSeconds` of a roll: the old key works one more day. */
export const DEFAULT_ROLL_GRACE_SECONDS = 86_400;
/** Longest `graceSeconds` of a roll: a week. */
export const MAX_ROLL_GRACE_SECONDS = 604_800;

/** Options of `KeyManager.roll`: what a `POST /keys/<id>/roll` body may hold. */
export interface RollOptions {
  /**
   * How long the old key keeps working, in whole seconds from 0 to {@link MAX_ROLL_GRACE_SECONDS}
   * (never past its own expiry). Default {@link DEFAULT_ROLL_GRACE_SECONDS}.
   */
  readonly graceSeconds?: number;
}

const GRACE = `graceSeconds must be a whole number of seconds from 0 to ${MAX_ROLL_GRACE_SECONDS}`;

const rollOptionsSchema = /* @__PURE__ */ lazySchema(() =>
  z.strictObject({
    graceSeconds: z.optional(
      z.int({ error: GRACE }).check(z.minimum(0, { error: GRACE }), z.maximum(MAX_ROLL_GRACE_SECONDS, { error: GRACE })),
    ),
  }),
);

/**
 * The grace of a roll from options that may come straight from a request body (any JSON value):
 * nothing (`undefined`, `null`, `''`) means the default; anything but `{ "graceSeconds"?: integer
 * 0..604800 }` is an `InvalidRequestError` (400), never a 5xx.
 * @internal
 */
export function parseRollGraceSeconds(body: unknown): number {
  if (body === undefined || body === null || body === '') return DEFAULT_ROLL_GRACE_SECONDS;
  const { graceSeconds } = parseRequestBody(rollOptionsSchema(), body, {
    request: 'invalid roll request',
    expected: 'expected {"graceSeconds"?: integer}',
    unknownField: 'only "graceSeconds" may be sent',
  });
  return graceSeconds ?? DEFAULT_ROLL_GRACE_SECONDS;
}
