import * as z from 'zod/mini';
import { lazySchema, parseOptions } from '../options/parse-options.js';

/** The one message every authentication failure answers with by default: the spec's. */
export const UNAUTHENTICATED_MESSAGE = 'missing or invalid API key: sign in to the dashboard to mint one';

/** The default realm of the `WWW-Authenticate` challenge. */
export const DEFAULT_REALM = 'drops';

/** The default `WWW-Authenticate` challenge sent with every 401. */
export const BEARER_CHALLENGE = `Bearer realm="${DEFAULT_REALM}"`;

/**
 * What an app may say in its one 401: the `WWW-Authenticate` realm and the JSON `error` message.
 * Whatever they are, every cause (missing, malformed, unknown, revoked, expired, wrong type)
 * answers the same bytes.
 */
export interface UnauthenticatedOptions {
  /** The realm of `WWW-Authenticate: Bearer realm="…"`: printable ASCII, no `"` or `\`. Default `'drops'`. */
  realm?: string;
  /** The `error` of the JSON body. Default the spec's: `'missing or invalid API key: sign in to the dashboard to mint one'`. */
  message?: string;
}

/** The bytes of one 401, resolved once. @internal */
export interface UnauthenticatedAnswer {
  readonly challenge: string;
  readonly body: { readonly error: string };
  readonly bodyText: string;
}

function answerOf(realm: string, message: string): UnauthenticatedAnswer {
  const body = Object.freeze({ error: message });
  return Object.freeze({ challenge: `Bearer realm="${realm}"`, body, bodyText: JSON.stringify(body) });
}

/** The spec's 401. @internal */
export const DEFAULT_UNAUTHENTICATED: UnauthenticatedAnswer = answerOf(DEFAULT_REALM, UNAUTHENTICATED_MESSAGE);

/** A quoted-string's content without escapes (RFC 9110, 5.6.4): visible ASCII and space, never `"` or `\`; at most 128. */
const REALM = /^[\x20\x21\x23-\x5b\x5d-\x7e]{1,128}$/;

const schema = /* @__PURE__ */ lazySchema(() =>
  z.optional(
    z.strictObject({
      realm: z.optional(z.string().check(z.refine((realm) => REALM.test(realm), 'must be printable ASCII without " or \\'))),
      message: z.optional(z.string().check(z.minLength(1))),
    }),
  ),
);

/**
 * Parses `createAuthenticator`'s `unauthenticated` option once: a realm with a quote, a backslash
 * or a control character, or an empty message, is a `TypeError` naming `where`.
 * @internal
 */
export function parseUnauthenticated(options: unknown, where: string): UnauthenticatedAnswer {
  const parsed = parseOptions(schema(), options, where, 'options.unauthenticated');
  if (parsed === undefined || (parsed.realm === undefined && parsed.message === undefined)) return DEFAULT_UNAUTHENTICATED;
  return answerOf(parsed.realm ?? DEFAULT_REALM, parsed.message ?? UNAUTHENTICATED_MESSAGE);
}
