/**
 * What the key manager does, loaded at its first call (see `createKeyManager`): the rules of
 * every `/keys` operation, in one place for every adapter.
 */
import { isKeyId } from '../api-key/api-key-format.js';
import { generateApiKey, type GeneratedApiKey, type RandomSource } from '../api-key/generate-api-key.js';
import type { Principal } from '../authenticator/principal.js';
import type { Clock } from '../clock.js';
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
import { hasSessionCutoffs } from '../key-store/session-cutoffs.js';
import { eventContextOf, type KeyEventContext, type RequestInfo, type RevokeManyStatus } from '../key-store/key-event.js';
import type { KeyProvenance, NewKeyRecord } from '../key-store/key-store.js';
import { parseKeyEventsPage } from './events-page.js';
import { toKeyEventJson } from './key-event-json.js';
import { toKeyJson, toMintedKeyJson } from './key-json.js';
import type { RateLimit } from '../rate-limit/rate-limiter.js';
import { inProcessRateLimitStore, takeOrUnavailable, type RateLimitStore } from '../rate-limit/rate-limit-store.js';
import { assertRecentLogin } from './login-age.js';
import { keyIdsOfSecrets, revokeIds, type RevokeBySecretContext } from './revoke-by-secret.js';
import { parseMintOptions, type ParsedMintOptions } from './mint-options.js';
import { parseRollGraceSeconds } from './roll-options.js';
import { pendingRevocationsDrainer } from './pending-revocations.js';
import type { KeyManager, KeyManagerOptions } from './create-key-manager.js';

/** The scope mints are counted in, in a {@link RateLimitStore}. */
const MINT_RATE_LIMIT_SCOPE = 'mint';

/** `createKeyManager`'s options, parsed and defaulted. @internal */
export interface KeyOperationSettings {
  readonly keyStore: KeyManagerOptions['keyStore'];
  readonly clock: Clock;
  readonly random: RandomSource | undefined;
  readonly maxKeys: number;
  readonly rateLimit: RateLimit | false;
  readonly rateLimitStore: RateLimitStore | undefined;
  readonly maxAuthAgeSeconds: number | undefined;
  readonly maxKeyLifetimeSeconds: number | undefined;
}

/** The key manager's operations (all but its `webhook`). @internal */
export type KeyOperations = Omit<KeyManager, 'webhook'>;

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

/** The key manager's operations over `settings`. @internal */
export function keyOperations(settings: KeyOperationSettings): KeyOperations {
  const { keyStore, clock, random, maxKeys, rateLimit, maxAuthAgeSeconds, maxKeyLifetimeSeconds } = settings;
  const limits = settings.rateLimitStore ?? inProcessRateLimitStore({ clock });
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
      return toMintedKeyJson(key.secret, record);
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
      return { ...toMintedKeyJson(key.secret, record), replaces: id };
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

    async events(principal, page) {
      const request = parseKeyEventsPage(page);
      const result = await guard('listEvents', () => keyStore.listEvents(principal.accountId, request));
      return { events: result.events.map(toKeyEventJson), next: result.next };
    },
  };
}
