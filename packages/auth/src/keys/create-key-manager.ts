import { hasSessionCutoffs } from '../key-store/session-cutoffs.js';
import * as z from 'zod/mini';
import { isKeyId } from '../api-key/api-key-format.js';
import { generateApiKey, type GeneratedApiKey, type RandomSource } from '../api-key/generate-api-key.js';
import type { Principal } from '../authenticator/principal.js';
import { systemClock, type Clock } from '../clock.js';
import { InvalidRequestError } from '../errors/invalid-request-error.js';
import { ConflictError } from '../errors/conflict-error.js';
import { KeyLimitError } from '../errors/key-limit-error.js';
import { NotFoundError } from '../errors/not-found-error.js';
import { RateLimitedError } from '../errors/rate-limited-error.js';
import { UnauthenticatedError } from '../errors/unauthenticated-error.js';
import { UnavailableError } from '../errors/unavailable-error.js';
import type { KeyStoreOperation } from '../diagnostics/diagnostics-messages.js';
import { observeKeyStoreCall, observingKeyStore } from '../diagnostics/observe-key-store-call.js';
import { observeRevocation, observeRevocationsByValue } from '../diagnostics/observe-revocation.js';
import { eventContextOf, type KeyEventContext, type RequestInfo, type RevokeManyStatus } from '../key-store/key-event.js';
import type { KeyProvenance, KeyStore, NewKeyRecord } from '../key-store/key-store.js';
import { functionOption, lazySchema, parseOptions } from '../options/parse-options.js';
import { parseKeyEventsPage, type KeyEventsPageRequest } from './events-page.js';
import { toKeyEventJson, type KeyEventJson } from './key-event-json.js';
import { toKeyJson, type KeyJson, type MintedKeyJson, type RolledKeyJson } from './key-json.js';
import { rateLimitOptionSchema, type RateLimit } from '../rate-limit/rate-limiter.js';
import { inProcessRateLimitStore, isRateLimitStore, takeOrUnavailable, type RateLimitStore } from '../rate-limit/rate-limit-store.js';
import { assertRecentLogin } from './login-age.js';
import { keyIdsOfSecrets, revokeIds, type RevokeBySecretContext, type RevokeBySecretResult } from './revoke-by-secret.js';
import { parseMintOptions, type MintOptions, type ParsedMintOptions } from './mint-options.js';
import { parseRollGraceSeconds, type RollOptions } from './roll-options.js';
import { pendingRevocationsDrainer } from './pending-revocations.js';
import { isWebhookSettings, WEBHOOKS_NOT_CONFIGURED, type WebhookSettings } from '../webhooks/webhook-settings.js';

/** Default `maxKeysPerAccount`: active keys one account may hold. */
export const DEFAULT_MAX_KEYS_PER_ACCOUNT = 1000;

/** Default `mintRateLimit`: 60 mints at once per account, refilled at 60 an hour. */
export const DEFAULT_MINT_RATE_LIMIT = { max: 60, windowMs: 3_600_000 } as const;

/** The scope mints are counted in, in a {@link RateLimitStore}. */
const MINT_RATE_LIMIT_SCOPE = 'mint';

/** How often one account may mint: up to `max` at once, refilled at `max` per `windowMs`. */
export type MintRateLimit = RateLimit;

/** Options of {@link createKeyManager}. */
export interface KeyManagerOptions {
  keyStore: KeyStore;
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
   * (`KeyStore.recordRevocationRequest`) and resolves, then carries it out in the background as
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
    keyStore: z.custom<KeyStore>((v) => typeof (v as KeyStore | undefined)?.create === 'function', {
      error: 'expected a KeyStore',
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

function provenanceOf(principal: Principal & { credential: 'id_token' }): KeyProvenance {
  const { claims } = principal;
  const provider = claims.firebase?.sign_in_provider;
  return {
    subject: claims.sub,
    signInProvider: typeof provider === 'string' ? provider : null,
    authTime: typeof claims.auth_time === 'number' ? new Date(claims.auth_time * 1000) : null,
  };
}

/**
 * One key store call: reported on `drops-auth:key-store` when observed; a failure is a 503, except
 * a store's `InvalidRequestError` (a malformed cursor), which is the caller's 400.
 */
async function guard<T>(operation: KeyStoreOperation, call: () => Promise<T>): Promise<T> {
  try {
    return await (observingKeyStore() ? observeKeyStoreCall(operation, call) : call());
  } catch (cause) {
    if (cause instanceof InvalidRequestError) throw cause;
    throw new UnavailableError('key_store', { cause });
  }
}

/** A mint's expiry must be strictly after `now` and, with a maximum lifetime, at most that far ahead: else a 400. */
function checkExpiry(expiresAt: Date, now: number, maxKeyLifetimeSeconds: number | undefined): void {
  if (expiresAt.getTime() <= now) throw new InvalidRequestError('invalid key request: expiresAt must be in the future');
  if (maxKeyLifetimeSeconds !== undefined && expiresAt.getTime() - now > maxKeyLifetimeSeconds * 1000) {
    throw new InvalidRequestError(`invalid key request: expiresAt must be at most ${maxKeyLifetimeSeconds} seconds ahead`);
  }
}

/** A 400 unless `id` is a key id (64 lowercase hex). */
function assertKeyId(id: unknown): asserts id is string {
  if (typeof id !== 'string' || !isKeyId(id)) throw new InvalidRequestError('key id must be 64 lowercase hexadecimal characters');
}

/** The 201 body of a mint: the only time the secret is sent. */
function mintedJson(secret: string, key: NewKeyRecord): MintedKeyJson {
  const { id, prefix, name, createdAt, expiresAt } = key;
  return {
    apiKey: secret,
    id,
    prefix,
    name,
    createdAt: createdAt.toISOString(),
    expiresAt: expiresAt === null ? null : expiresAt.toISOString(),
  };
}

/** Who acted: the ID token's subject, or the id of the key that authenticated. */
function actorOf(principal: Principal): string {
  return principal.credential === 'id_token' ? principal.claims.sub : principal.keyId;
}

const REVOKE_BY_SECRET_SOURCES: ReadonlySet<unknown> = new Set(['revoke_by_value', 'github_secret_scanning']);

/** The event context of a revocation by value; a `TypeError` for a context without a known source. */
function revokeBySecretEvent(context: RevokeBySecretContext): KeyEventContext {
  if (!REVOKE_BY_SECRET_SOURCES.has(context?.source)) {
    throw new TypeError("revokeBySecret: context.source must be 'revoke_by_value' or 'github_secret_scanning'");
  }
  const actor = context.actor !== undefined ? context.actor : context.source === 'github_secret_scanning' ? 'github' : null;
  return eventContextOf(context.source, actor, context.request, context.url ?? null);
}

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
  const { keyStore } = options;
  const clock = options.clock ?? systemClock;
  const random = options.random;
  const maxKeys = options.maxKeysPerAccount ?? DEFAULT_MAX_KEYS_PER_ACCOUNT;
  const rateLimit = options.mintRateLimit ?? DEFAULT_MINT_RATE_LIMIT;
  const limits = options.rateLimitStore ?? inProcessRateLimitStore({ clock });
  const maxAuthAgeSeconds = options.maxAuthAgeSeconds;
  const maxKeyLifetimeSeconds = options.maxKeyLifetimeSeconds;
  const revokeIdsObserved = (ids: readonly string[], at: Date, event: KeyEventContext): Promise<Map<string, RevokeManyStatus>> =>
    observeRevocationsByValue((report) => guard('revokeMany', () => revokeIds(keyStore, ids, { at, event, report })));
  const drainPending = pendingRevocationsDrainer(keyStore, revokeIdsObserved);
  const revokePending = (): Promise<void> =>
    drainPending().catch((cause: unknown) => {
      throw cause instanceof UnavailableError ? cause : new UnavailableError('key_store', { cause });
    });

  /** Only an ID token mints, and with `maxAuthAgeSeconds` only one from a recent sign-in: before any input is read. */
  function assertMayMint(principal: Principal): asserts principal is Principal & { credential: 'id_token' } {
    if (principal.credential !== 'id_token') throw new UnauthenticatedError('wrong_credential_type');
    if (maxAuthAgeSeconds !== undefined) assertRecentLogin(principal, maxAuthAgeSeconds, clock());
  }

  /**
   * Everything a mint does before the store writes the key, for `mint` and `roll` alike (after
   * {@link assertMayMint}): an expiry in range, the mint rate limit; then the new key.
   */
  async function prepareMint(
    principal: Principal & { credential: 'id_token' },
    { name, expiresAt }: ParsedMintOptions,
    request: RequestInfo | undefined,
  ): Promise<{ key: GeneratedApiKey; record: NewKeyRecord; event: KeyEventContext }> {
    const now = clock();
    if (expiresAt !== null) checkExpiry(expiresAt, now, maxKeyLifetimeSeconds);
    const expires = expiresAt ?? (maxKeyLifetimeSeconds === undefined ? null : new Date(now + maxKeyLifetimeSeconds * 1000));
    const waitMs = rateLimit === false ? 0 : await takeOrUnavailable(limits, MINT_RATE_LIMIT_SCOPE, principal.accountId, rateLimit);
    if (waitMs > 0) throw new RateLimitedError('too many keys minted for this account: try again later', waitMs / 1000);
    const key = generateApiKey(random);
    const record: NewKeyRecord = {
      id: key.id,
      accountId: principal.accountId,
      prefix: key.prefix,
      name,
      createdAt: new Date(now),
      provenance: provenanceOf(principal),
      expiresAt: expires,
    };
    return { key, record, event: eventContextOf('api', principal.claims.sub, request) };
  }

  return {
    async mint(principal, mintOptions, request) {
      assertMayMint(principal);
      const { name, expiresAt } = parseMintOptions(mintOptions);
      const { key, record, event } = await prepareMint(principal, { name, expiresAt }, request);
      const created = await guard('create', () => keyStore.createWithinLimit(record, maxKeys, event));
      if (!created) throw new KeyLimitError(maxKeys);
      return mintedJson(key.secret, record);
    },

    async roll(principal, id, rollOptions, request) {
      assertMayMint(principal);
      const graceSeconds = parseRollGraceSeconds(rollOptions);
      assertKeyId(id);
      const old = (await guard('listByAccount', () => keyStore.listByAccount(principal.accountId))).find((k) => k.id === id);
      // Before the mint's checks: a key that is not there (or has expired) costs no mint.
      if (old === undefined || (old.expiresAt !== null && old.expiresAt.getTime() <= keyStore.now())) {
        throw new NotFoundError('no active key with that id');
      }
      const { key, record, event } = await prepareMint(principal, { name: old.name, expiresAt: null }, request);
      const graceEndsAt = new Date(keyStore.now() + graceSeconds * 1000);
      const rolled = await guard('roll', () => keyStore.roll({ oldId: id, key: record, graceEndsAt, maxActive: maxKeys, event }));
      if (rolled.status === 'not_found') throw new NotFoundError('no active key with that id');
      if (rolled.status === 'already_rolled') throw new ConflictError('this key was rolled already: roll the key that replaced it');
      if (rolled.status === 'limit') throw new KeyLimitError(maxKeys);
      return { ...mintedJson(key.secret, record), replaces: id };
    },

    async list(principal) {
      const keys = await guard('listByAccount', () => keyStore.listByAccount(principal.accountId));
      return keys.map(toKeyJson);
    },

    async revoke(principal, id, request) {
      assertKeyId(id);
      const event = eventContextOf('api', actorOf(principal), request);
      await observeRevocation(id, async (report) => {
        const revoked = await guard('revoke', () => keyStore.revoke(principal.accountId, id, { at: new Date(clock()), event, report }));
        if (!revoked) throw new NotFoundError('no active key with that id');
      });
    },

    async revokeAll(principal, request) {
      if (principal.credential !== 'id_token') throw new UnauthenticatedError('wrong_credential_type');
      const event = eventContextOf('api', principal.claims.sub, request);
      const revoked = await guard('revokeAll', () => keyStore.revokeAll(principal.accountId, { at: new Date(clock()), event }));
      return { revoked };
    },

    async signOutEverywhere(principal, request) {
      if (principal.credential !== 'id_token') throw new UnauthenticatedError('wrong_credential_type');
      if (!hasSessionCutoffs(keyStore)) throw new NotFoundError('signing out everywhere needs a key store that keeps sign-out cut-offs');
      const { auth_time: authTime, iat } = principal.claims;
      const at = new Date(Math.max(keyStore.now(), (authTime ?? iat) * 1000));
      const event = eventContextOf('api', principal.claims.sub, request);
      const cutoff = await guard('signOutEverywhere', () => keyStore.signOutEverywhere(principal.accountId, { at, event }));
      return { tokensValidAfter: cutoff.toISOString() };
    },

    async revokeBySecret(secrets, context) {
      const event = revokeBySecretEvent(context);
      const ids = keyIdsOfSecrets(secrets);
      const found = ids.filter((id): id is string => id !== null);
      const statuses = await revokeIdsObserved(found, new Date(clock()), event);
      return ids.map((keyId) =>
        keyId === null ? { keyId: null, status: 'not_a_key' } : { keyId, status: statuses.get(keyId) ?? 'unknown' },
      );
    },

    async revokeBySecretLater(secrets, context) {
      const event = revokeBySecretEvent(context);
      const keyIds = keyIdsOfSecrets(secrets).filter((id): id is string => id !== null);
      // Nothing key-shaped: nothing to do, and nothing the caller did not know (it wrote the entries).
      if (keyIds.length === 0) return;
      await guard('recordRevocationRequest', () => keyStore.recordRevocationRequest({ keyIds, at: new Date(clock()), event }));
      // In the background, from a later task: not before the answer is on its way (an in-process
      // database such as PGlite would otherwise hold the event loop for the revocation's work).
      // A failure leaves the request pending for the next pass or process.
      setTimeout(() => void revokePending().catch(() => {}), 0);
    },

    revokePending,

    webhook: options.webhooks ?? WEBHOOKS_NOT_CONFIGURED,

    async events(principal, page) {
      const request = parseKeyEventsPage(page);
      const result = await guard('listEvents', () => keyStore.listEvents(principal.accountId, request));
      return { events: result.events.map(toKeyEventJson), next: result.next };
    },
  };
}
