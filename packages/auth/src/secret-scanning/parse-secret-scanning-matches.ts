import * as z from 'zod/mini';
import { InvalidRequestError } from '../errors/invalid-request-error.js';
import { lazySchema } from '../options/parse-options.js';

/** One secret GitHub found, as its secret scanning alert names it. */
export interface GitHubSecretScanningMatch {
  /** The secret as found. */
  readonly token: string;
  /** The secret type GitHub matched (the name given at partner registration). */
  readonly type: string;
  /** Where it was found (a public URL), or `null` when GitHub gave none. */
  readonly url: string | null;
  /** What kind of place it was found in (`content`, `commit`, `issue_comment`, …), or `null`. */
  readonly source: string | null;
}

const EXPECTED = 'the request body must be a JSON array of {"token", "type", "url", "source"}';

const matchesSchema = /* @__PURE__ */ lazySchema(() =>
  z.array(
    // Not strict: GitHub may add fields, and a delivery must not fail for that.
    z.object({
      token: z.string(),
      type: z.string(),
      url: z.optional(z.nullable(z.string())),
      source: z.optional(z.nullable(z.string())),
    }),
  ),
);

/**
 * Parses the body of a verified secret scanning alert, `[{token, type, url, source}]` (UTF-8
 * JSON). Anything else is an `InvalidRequestError` (400) that names the expected shape, never a
 * piece of the body.
 *
 * @example
 * ```ts
 * parseSecretScanningMatches(new TextEncoder().encode('[{"token":"hp_…","type":"drops_api_key","url":"https://…","source":"content"}]'));
 * ```
 */
export function parseSecretScanningMatches(body: Uint8Array): GitHubSecretScanningMatch[] {
  let document: unknown;
  try {
    document = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(body));
  } catch {
    throw new InvalidRequestError(EXPECTED);
  }
  const parsed = z.safeParse(matchesSchema(), document);
  if (!parsed.success) throw new InvalidRequestError(EXPECTED);
  return parsed.data.map(({ token, type, url, source }) => ({ token, type, url: url ?? null, source: source ?? null }));
}
