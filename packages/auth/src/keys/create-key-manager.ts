import * as z from 'zod/mini';
import type { RandomSource } from '../api-key/generate-api-key.js';
import type { Principal } from '../authenticator/principal.js';
import { systemClock, type Clock } from '../clock.js';
import type { RequestInfo } from '../key-store/key-event.js';
import { KEY_EVENT_LOG_METHODS, type KeyEventLog } from '../key-store/key-event-log.js';
import { keyStoreOption } from '../key-store/key-store-option.js';
import { KEY_WRITES_METHODS, type KeyWrites } from '../key-store/key-writes.js';
import { PENDING_REVOCATION_QUEUE_METHODS, type PendingRevocationQueue } from '../key-store/pending-revocation-queue.js';
import { functionOption, lazySchema, parseOptions } from '../options/parse-options.js';
import type { KeyEventsPageRequest } from './events-page.js';
import type { KeyEventJson } from './key-event-json.js';
import type { KeyJson, MintedKeyJson, RolledKeyJson } from './key-json.js';
import { rateLimitOptionSchema, type RateLimit } from '../rate-limit/rate-limiter.js';
import { isRateLimitStore, type RateLimitStore } from '../rate-limit/rate-limit-store.js';
import type { RevokeBySecretContext, RevokeBySecretResult } from './revoke-by-secret.js';
import type { MintOptions } from './mint-options.js';
import type { RollOptions } from './roll-options.js';
import { isWebhookSettings, WEBHOOKS_NOT_CONFIGURED, type WebhookSettings } from '../webhooks/webhook-settings.js';
import type { KeyOperations, KeyOperationSettings } from './key-operations.js';

/** Default `maxKeysPerAccount`: active keys one account may hold. */
export const DEFAULT_MAX_KEYS_PER_ACCOUNT = 1000;

/** Default `mintRateLimit`: 60 mints at once per account, refilled at 60 an hour. */
export const DEFAULT_MINT_RATE_LIMIT = { max: 60, windowMs: 3_600_000 } as const;

/** How often one account may mint: up to `max` at once, refilled at `max` per `windowMs`. */
export type MintRateLimit = RateLimit;

/** Options of {@link createKeyManager}. */
export interface KeyManagerOptions {
  /** Where keys are written, listed and their events read: a whole `KeyStore`, or any store with these three parts. */
  keyStore: KeyWrites & KeyEventLog & PendingRevocationQueue;
  /** Default: `Date.now`. */
  clock?: Clock;
  /** Default: `crypto.randomBytes`. Inject only in tests. */
  random?: RandomSource;
  /**
   * Active keys one account may hold. A mint above it is `KeyLimitError` (409, with the limit in
   * the body); revoking a key frees a slot. Exact under concurrency (the store's
   * `createWithinLimit` is atomic). Default 1000.
   */
  maxKeysPerAccount?: number;
  /**
   * How often one account may mint, counted in `rateLimitStore` (scope `'mint'`). Over it,
   * `RateLimitedError` (429 with `Retry-After`); a store that cannot answer, `UnavailableError`
   * (503). `false` turns it off. Default `{ max: 60, windowMs: 3_600_000 }`: 60 at once, then one a minute.
   */
  mintRateLimit?: MintRateLimit | false;
  /**
   * Where `mintRateLimit` is counted. Default `inProcessRateLimitStore({ clock })`: in this
   * process, so with several server instances each counts its own mints; give every instance a
   * `PostgresRateLimitStore` (`@drops/auth-postgres`) on one database to count them together.
   */
  rateLimitStore?: RateLimitStore;
  /**
   * When set, minting needs an ID token whose `auth_time` is at most this many seconds old (by
   * `clock`): a token without `auth_time`, or from an older sign-in, gets the uniform 401 (reason
   * `login_too_old`), and the user signs in again. Default: unset (any valid ID token mints).
   */
  maxAuthAgeSeconds?: number;
  /**
   * When set, the longest any key lives, in seconds (by `clock`): a mint's `expiresAt` may be at
   * most this far ahead (further is an `InvalidRequestError`, 400), a mint without `expiresAt`
   * expires this far ahead, and so does a roll's new key. Default: unset (any future expiry, or
   * none).
   */
  maxKeyLifetimeSeconds?: number;
  /**
   * The account's webhook endpoint (`GET|PUT|DELETE /keys/webhook`): what `createWebhookSettings({
   * store })` returns. Default: unset, and those routes answer 404. Delivery is the store's
   * (`PostgresWebhookStore` of `@drops/auth-postgres`).
   */
  webhooks?: WebhookSettings;
}

/** Mint, list and revoke keys for an authenticated principal: what the `/keys` routes call. */
export interface KeyManager {
  /**
   * Mints a key for the principal's account. Only an ID token may mint (an API key gets the
   * uniform 401), and with `maxAuthAgeSeconds` only one from a recent enough sign-in. `options`
   * may come from a request body: anything but `{ name?: string, expiresAt?: string }` is an
   * `InvalidRequestError` (400), and so is an `expiresAt` that is not strictly in the future or is
   * further ahead than `maxKeyLifetimeSeconds`; nothing is stored then. The result is the 201 body and the only time the secret is ever returned. Writes a
   * `'minted'` event (source `'api'`, actor the token's `sub`, with `request`'s address and agent).
   */
  mint(principal: Principal, options?: MintOptions, request?: RequestInfo): Promise<MintedKeyJson>;
  /**
   * Rolls one of the account's keys (`POST /keys/<id>/roll`): mints its replacement as `mint` does
   * (ID token only, the same recent-login rule, rate limit and key limit; the old key's name, no
   * expiry or `maxKeyLifetimeSeconds` ahead when that is set) and makes the old key expire `graceSeconds` from now (default 86 400, at most 604 800;
   * never later than its own expiry), in one store transaction. Both keys work during the grace.
   * Resolves the mint's 201 body plus `replaces` (the old id) once every instance knows both
   * changes. `400` for a bad id or options, `404` when the account has no active, unexpired key
   * with that id, `409` (`ConflictError`) for a key rolled before. Writes the new key's `'minted'`
   * event and the old key's `'rolled'` event, each naming the other.
   */
  roll(principal: Principal, id: string, options?: RollOptions, request?: RequestInfo): Promise<RolledKeyJson>;
  /**
   * Revokes every active key of the account (`DELETE /keys`), ID token only (an API key gets the
   * uniform 401), in one transaction with a `'revoked'` event each; resolves `{ revoked: n }` once
   * no instance accepts any of them.
   */
  revokeAll(principal: Principal, request?: RequestInfo): Promise<{ revoked: number }>;
  /**
   * Signs the account out everywhere (`DELETE /sessions`), ID token only (an API key gets the
   * uniform 401): from the cut-off on, an ID token of the account signed in (`auth_time`, else
   * `iat`) at or before it is the uniform 401, the caller's own included; API keys are untouched.
   * The cut-off is the store's time, or the caller's sign-in if that is later (a provider's clock
   * ahead of the store's). Writes a `'sessions_revoked'` event and resolves
   * `{ tokensValidAfter }` (RFC 3339) once no instance accepts an earlier sign-in. A 404 when the
   * key store does not implement `SessionCutoffs`.
   */
  signOutEverywhere(principal: Principal, request?: RequestInfo): Promise<{ tokensValidAfter: string }>;
  /** The account's active keys, newest first, as JSON for `GET /keys`. Never a secret. */
  list(principal: Principal): Promise<KeyJson[]>;
  /**
   * Revokes one of the account's keys. `400` when `id` is not 64 lowercase hex, `404` when the
   * account has no active key with that id (another account's, already revoked, never existed).
   * Writes a `'revoked'` event (source `'api'`, actor the token's `sub` or the acting key's id).
   * Publishes one `RevocationMessage` on `drops-auth:revocation` when anyone listens.
   */
  revoke(principal: Principal, id: string, request?: RequestInfo): Promise<void>;
  /**
   * Revokes keys by value, whatever their account: holding a secret is the right to kill it.
   * Entries that are not key-shaped strings are ignored (`{ keyId: null, status: 'not_a_key' }`).
   * One result per entry, in order: `'revoked'` now, `'already_revoked'`, or `'unknown'`. Never
   * throws for unknown keys; `UnavailableError` (503) if the store fails, `InvalidRequestError`
   * (400) if `secrets` is not a list. Resolves once no instance accepts any revoked key.
   * Publishes one `RevocationMessage` per key it revoked on `drops-auth:revocation` when anyone
   * listens (none for the other entries).
   */
  revokeBySecret(secrets: readonly unknown[], context: RevokeBySecretContext): Promise<RevokeBySecretResult[]>;
  /**
   * Revokes keys by value later: records their key ids in the store as a pending revocation
   * (`PendingRevocationQueue.recordRevocationRequest`) and resolves, then carries it out in the background as
   * `revokeBySecret` would (events, `drops-auth:revocation`, the wait for every instance). What
   * `POST /credentials/revoke` calls: it answers after the same work whatever the secrets were,
   * so its time tells nothing about them. Entries that are not key-shaped strings are ignored.
   * `UnavailableError` (503) if the store cannot record it; `InvalidRequestError` (400) if
   * `secrets` is not a list. A request recorded and not carried out (a crash) is carried out by
   * the next `revokePending`.
   */
  revokeBySecretLater(secrets: readonly unknown[], context: RevokeBySecretContext): Promise<void>;
  /**
   * Carries out every pending revocation by value the store holds (those of `revokeBySecretLater`,
   * this process's or a crashed one's) and resolves once all recorded before the call are done;
   * `UnavailableError` (503) if the store fails (they stay pending). The leaked-key routes call it
   * when they are created, so a restart finishes what a crash left.
   */
  revokePending(): Promise<void>;
  /**
   * The account's key events, newest first, as the body of `GET /keys/events`. `page` may be a
   * request's query: `limit` 1 to 100 (default 50, a number or a decimal string) and `cursor` the
   * `next` of a previous page; anything else is an `InvalidRequestError` (400).
   */
  events(principal: Principal, page?: KeyEventsPageRequest): Promise<{ events: KeyEventJson[]; next: string | null }>;
  /** The account's webhook endpoint (`GET|PUT|DELETE /keys/webhook`): 404s without the `webhooks` option. */
  readonly webhook: WebhookSettings;
}

const optionsSchema = /* @__PURE__ */ lazySchema(() =>
  z.strictObject({
    keyStore: keyStoreOption<KeyManagerOptions['keyStore']>({
      KeyWrites: KEY_WRITES_METHODS,
      KeyEventLog: KEY_EVENT_LOG_METHODS,
      PendingRevocationQueue: PENDING_REVOCATION_QUEUE_METHODS,
    }),
    clock: z.optional(functionOption<Clock>()),
    random: z.optional(functionOption<RandomSource>()),
    maxKeysPerAccount: z.optional(z.int().check(z.positive())),
    mintRateLimit: z.optional(rateLimitOptionSchema()),
    rateLimitStore: z.optional(z.custom<RateLimitStore>(isRateLimitStore, { error: 'expected a RateLimitStore' })),
    maxAuthAgeSeconds: z.optional(z.int().check(z.positive())),
    maxKeyLifetimeSeconds: z.optional(z.int().check(z.positive())),
    webhooks: z.optional(z.custom<WebhookSettings>(isWebhookSettings, { error: 'expected createWebhookSettings({ store })' })),
  }),
);

/**
 * Creates the key operations the `/keys` routes of every adapter call, so the rules (only an ID
 * token mints, own account only, 400/404, at most `maxKeysPerAccount` active keys (409), at most
 * `mintRateLimit` mints (429)) live in one place.
 *
 * @example
 * ```ts
 * const keys = createKeyManager({ keyStore });
 * const minted = await keys.mint(principal, { name: 'ci-main' });
 * // { apiKey: 'hp_…', id: '…', prefix: 'hp_…', name: 'ci-main', createdAt: '2026-…', expiresAt: null }
 * await keys.revoke(principal, minted.id);
 * ```
 *
 * @example
 * ```ts
 * // At most 50 active keys per account (409 above), at most 10 mints an hour (429 above).
 * const keys = createKeyManager({ keyStore, maxKeysPerAccount: 50, mintRateLimit: { max: 10, windowMs: 3_600_000 } });
 * ```
 */
export function createKeyManager(options: KeyManagerOptions): KeyManager {
  parseOptions(optionsSchema(), options, 'createKeyManager');
  const settings: KeyOperationSettings = {
    keyStore: options.keyStore,
    clock: options.clock ?? systemClock,
    random: options.random,
    maxKeys: options.maxKeysPerAccount ?? DEFAULT_MAX_KEYS_PER_ACCOUNT,
    rateLimit: options.mintRateLimit ?? DEFAULT_MINT_RATE_LIMIT,
    rateLimitStore: options.rateLimitStore,
    maxAuthAgeSeconds: options.maxAuthAgeSeconds,
    maxKeyLifetimeSeconds: options.maxKeyLifetimeSeconds,
  };
  // The operations are loaded at the first call: only `/keys` requests need them, so an app's
  // bundle loads the authenticator path without them (bench/METHOD.md, "Bundle size").
  let operations: Promise<KeyOperations> | undefined;
  const load = (): Promise<KeyOperations> =>
    (operations ??= import('./key-operations.js').then(({ keyOperations }) => keyOperations(settings)));
  return {
    mint: async (principal, mintOptions, request) => (await load()).mint(principal, mintOptions, request),
    roll: async (principal, id, rollOptions, request) => (await load()).roll(principal, id, rollOptions, request),
    revokeAll: async (principal, request) => (await load()).revokeAll(principal, request),
    signOutEverywhere: async (principal, request) => (await load()).signOutEverywhere(principal, request),
    list: async (principal) => (await load()).list(principal),
    revoke: async (principal, id, request) => (await load()).revoke(principal, id, request),
    revokeBySecret: async (secrets, context) => (await load()).revokeBySecret(secrets, context),
    revokeBySecretLater: async (secrets, context) => (await load()).revokeBySecretLater(secrets, context),
    revokePending: async () => (await load()).revokePending(),
    events: async (principal, page) => (await load()).events(principal, page),
    webhook: options.webhooks ?? WEBHOOKS_NOT_CONFIGURED,
  };
}
