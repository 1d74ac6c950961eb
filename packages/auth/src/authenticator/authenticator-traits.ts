import { answeredAs } from '../errors/unauthenticated-error.js';
import type { UnauthenticatedAnswer } from '../errors/unauthenticated-answer.js';
import type { DropsAuthError } from '../errors/drops-auth-error.js';
import type { RequestInfo } from '../key-store/key-event.js';
import type { AuthorizationSource, Authenticator } from './create-authenticator.js';
import type { CredentialType, Principal } from './principal.js';

/**
 * What a request's credential comes to: the principal, `null` (no credential where one is
 * optional), or the `DropsAuthError` to answer (the uniform 401, a 503), as a value.
 */
export type AuthAnswer = Principal | null | DropsAuthError;

/**
 * Whether an {@link AuthAnswer} is the error to answer rather than a principal (or `null`). The
 * check only ever answers a `DropsAuthError` as an error, so any `Error` is one: `instanceof
 * Error` is V8's own prototype walk, where `instanceof DropsAuthError` calls the class's
 * `Symbol.hasInstance` (a brand lookup, so that the CommonJS and ESM copies know each other's
 * errors) on every request that passes.
 *
 * @example
 * ```ts
 * const answer = check(authorizationOfNodeRequest(req));
 * if (!(answer instanceof Promise)) isErrorAnswer(answer) ? writeNodeAnswer(res, answer) : next();
 * ```
 */
export function isErrorAnswer(answer: AuthAnswer): answer is DropsAuthError {
  return answer instanceof Error;
}

/** `createAuthenticator`'s one check: an answer at hand is a value, else a promise of one. @internal */
export type AuthenticatorCheck = (
  source: AuthorizationSource,
  accept: readonly CredentialType[],
  required: boolean,
  request: (() => RequestInfo) | undefined,
) => AuthAnswer | Promise<AuthAnswer>;

/**
 * What `createAuthenticator` tells the adapters about an authenticator beyond its two methods,
 * under a `Symbol.for` (the same in every copy of `@drops/auth`): an authenticator written by
 * hand has none, and is taken to answer the spec's 401 and to verify ID tokens.
 */
const TRAITS = Symbol.for('@drops/auth.authenticator-traits');

/** @internal */
export interface AuthenticatorTraits {
  /** The 401 its adapters answer. */
  readonly unauthenticated: UnauthenticatedAnswer;
  /** Whether it was given an `idTokenVerifier`. */
  readonly verifiesIdTokens: boolean;
  /** The check both methods are built on (absent in a copy of `@drops/auth` from before it). */
  readonly check?: AuthenticatorCheck;
}

/** Attaches `traits` to an authenticator `createAuthenticator` built. @internal */
export function withTraits(authenticator: Authenticator, traits: AuthenticatorTraits): Authenticator {
  return Object.defineProperty(authenticator, TRAITS, { value: Object.freeze(traits) });
}

function traitsOf(authenticator: Authenticator): AuthenticatorTraits | undefined {
  return (authenticator as { [TRAITS]?: AuthenticatorTraits })[TRAITS];
}

/** `createAuthenticator`'s check of `authenticator`, or `undefined` for one written by hand. @internal */
export function checkOf(authenticator: Authenticator): AuthenticatorCheck | undefined {
  return traitsOf(authenticator)?.check;
}

/**
 * `error` made to answer with `authenticator`'s 401 when it is an `UnauthenticatedError` (from
 * wherever it was thrown: a key manager, `principalOf`, a route), else `error` as it is. Every
 * adapter passes each error it answers through this, so the 401 an app configured with
 * `createAuthenticator({ unauthenticated })` is the one byte sequence of all its routes.
 *
 * @example
 * ```ts
 * import { answerOfError, writeNodeAnswer } from '@drops/auth/adapter';
 *
 * writeNodeAnswer(res, answerOfError(error, authenticator), req.auth);
 * ```
 */
export function answerOfError<E>(error: E, authenticator: Authenticator): E {
  return answeredAs(error, traitsOf(authenticator)?.unauthenticated);
}

/**
 * Refuses, with a `TypeError` naming `where`, routes that need ID tokens (`/keys`, an
 * `accept: ['id_token']` route) over an authenticator created without an `idTokenVerifier`: every
 * request to them would be a 401. An authenticator written by hand is taken at its word.
 *
 * @example
 * ```ts
 * import { assertVerifiesIdTokens } from '@drops/auth/adapter';
 *
 * assertVerifiesIdTokens(authenticator, 'keysRouter'); // TypeError without an idTokenVerifier
 * ```
 */
export function assertVerifiesIdTokens(authenticator: Authenticator, where: string): void {
  if (traitsOf(authenticator)?.verifiesIdTokens === false) {
    throw new TypeError(`${where}: the authenticator has no idTokenVerifier, so every request here would be a 401`);
  }
}
