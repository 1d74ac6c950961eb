import { generateKeyPairSync } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { InvalidRequestError, InvalidSignatureError, UnavailableError } from '../errors/index.js';
import { LocalSecretScanningKeys } from '../testing/local-secret-scanning-keys.js';
import type { OutageMode } from '../testing/local-key-server.js';
import { createGitHubSecretScanning, type GitHubSecretScanning } from './create-github-secret-scanning.js';
import type { GitHubSecretScanningOptions } from './github-secret-scanning-options.js';

const T0 = 1_800_000_000_000;
let nowMs = T0;
const clock = (): number => nowMs;
const SECOND = 1000;

let github: LocalSecretScanningKeys;
beforeEach(async () => {
  nowMs = T0;
  github = await LocalSecretScanningKeys.start();
});
afterEach(() => github.close());

function scanningFor(extra: Partial<GitHubSecretScanningOptions> = {}): GitHubSecretScanning {
  return createGitHubSecretScanning({ keysUrl: github.keysUrl, clock, fetchTimeoutMs: 500, ...extra });
}

const TOKEN = `hp_${'A'.repeat(42)}A`;
const BODY = JSON.stringify([
  { token: TOKEN, type: 'drops_api_key', url: 'https://github.com/octo/repo/blob/abc/.env', source: 'content' },
]);
const bytes = (text: string): Uint8Array => new TextEncoder().encode(text);

/** What `promise` rejected with; `undefined` if it resolved (which every caller's next check refuses). */
const rejection = (promise: Promise<unknown>): Promise<unknown> =>
  promise.then(
    () => undefined,
    (e: unknown) => e,
  );

/** A 401 that says nothing of the body. */
async function expectRefused(promise: Promise<unknown>): Promise<void> {
  const error = await rejection(promise);
  expect(error).toBeInstanceOf(InvalidSignatureError);
  expect(error).toMatchObject({ status: 401, code: 'ERR_INVALID_SIGNATURE' });
  expect((error as InvalidSignatureError).bodyText).not.toContain(TOKEN);
  expect((error as InvalidSignatureError).bodyText).not.toContain('hp_');
}

async function expectUnavailable(promise: Promise<unknown>): Promise<void> {
  const error = await rejection(promise);
  expect(error).toBeInstanceOf(UnavailableError);
  expect(error).toMatchObject({ status: 503, dependency: 'secret_scanning_keys' });
}

describe('createGitHubSecretScanning: signatures', () => {
  it('accepts an alert signed with a listed key and answers its matches', async () => {
    const matches = await scanningFor().verify(bytes(BODY), new Headers(github.signedHeaders(BODY)));
    expect(matches).toEqual([
      { token: TOKEN, type: 'drops_api_key', url: 'https://github.com/octo/repo/blob/abc/.env', source: 'content' },
    ]);
    expect(github.fetchCount).toBe(1);
  });

  it('reads Node header records (lower-case names) as well as Fetch Headers', async () => {
    const headers = Object.fromEntries(Object.entries(github.signedHeaders(BODY)).map(([k, v]) => [k.toLowerCase(), v]));
    await expect(scanningFor().verify(bytes(BODY), headers)).resolves.toHaveLength(1);
  });

  it('accepts a signature by a listed key that is not the current one', async () => {
    const old = github.currentKey;
    github.newKey();
    await expect(scanningFor().verify(bytes(BODY), new Headers(github.signedHeaders(BODY, { key: old })))).resolves.toHaveLength(1);
  });

  it.each<[string, (headers: Record<string, string>) => Record<string, string>]>([
    ['no signature headers at all', () => ({})],
    ['no identifier', (h) => ({ 'Github-Public-Key-Signature': h['Github-Public-Key-Signature']! })],
    ['no signature', (h) => ({ 'Github-Public-Key-Identifier': h['Github-Public-Key-Identifier']! })],
    ['a truncated signature', (h) => ({ ...h, 'Github-Public-Key-Signature': h['Github-Public-Key-Signature']!.slice(0, 40) })],
    ['a signature that is not base64', (h) => ({ ...h, 'Github-Public-Key-Signature': '%%%not-base64%%%' })],
    [
      'base64 that is not a DER signature',
      (h) => ({ ...h, 'Github-Public-Key-Signature': Buffer.from('garbage bytes here').toString('base64') }),
    ],
    ['an oversized signature', (h) => ({ ...h, 'Github-Public-Key-Signature': 'A'.repeat(4096) })],
    ['an identifier with spaces', (h) => ({ ...h, 'Github-Public-Key-Identifier': 'a b' })],
  ])('refuses %s with a 401, before fetching any key', async (_what, headersOf) => {
    await expectRefused(scanningFor().verify(bytes(BODY), new Headers(headersOf({ ...github.signedHeaders(BODY) }))));
    expect(github.fetchCount).toBe(0);
  });

  it('refuses a signature made with another key under a listed identifier', async () => {
    const stranger = github.newKey({ publish: false });
    const headers = github.signedHeaders(BODY, { key: stranger, keyIdentifier: github.currentKey.keyIdentifier });
    await expectRefused(scanningFor().verify(bytes(BODY), new Headers(headers)));
  });

  it('refuses a body changed by one byte after signing, wherever the byte is', async () => {
    const headers = new Headers(github.signedHeaders(BODY));
    const scanning = scanningFor();
    for (const at of [0, 10, BODY.indexOf('hp_') + 5, BODY.length - 1]) {
      const changed = bytes(BODY);
      changed[at]! ^= 0x01;
      await expectRefused(scanning.verify(changed, headers));
    }
    await expectRefused(scanning.verify(bytes(`${BODY} `), headers));
    await expectRefused(scanning.verify(bytes(BODY.slice(0, -1)), headers));
    await expect(scanning.verify(bytes(BODY), headers)).resolves.toHaveLength(1);
  });

  it('refuses a signature that lies about which key made it', async () => {
    const other = github.newKey();
    const headers = github.signedHeaders(BODY, { key: other, keyIdentifier: github.document.public_keys[0]!.key_identifier });
    await expectRefused(scanningFor().verify(bytes(BODY), new Headers(headers)));
  });

  it('refuses a body given as anything but bytes with a TypeError', async () => {
    await expect(scanningFor().verify(BODY as never, new Headers(github.signedHeaders(BODY)))).rejects.toBeInstanceOf(TypeError);
  });
});

describe('createGitHubSecretScanning: the key list', () => {
  it('refetches for an unknown identifier at most once per cooldown, and finds a key added since', async () => {
    const scanning = scanningFor({ unknownKeyCooldownMs: 60 * SECOND });
    await scanning.warmUp();
    expect(github.fetchCount).toBe(1);
    const unpublished = github.newKey({ publish: false });
    const signedByUnpublished = (): Headers => new Headers(github.signedHeaders(BODY, { key: unpublished }));

    await expectRefused(scanning.verify(bytes(BODY), signedByUnpublished()));
    expect(github.fetchCount).toBe(2);
    nowMs = T0 + 30 * SECOND;
    // Inside the cooldown an unknown identifier cannot be checked: a 503 (GitHub retries), not a 401.
    await expectUnavailable(scanning.verify(bytes(BODY), signedByUnpublished()));
    expect(github.fetchCount).toBe(2);

    // GitHub publishes a new key during the cooldown: found once the cooldown is over.
    const rotated = github.newKey();
    const error = await rejection(scanning.verify(bytes(BODY), new Headers(github.signedHeaders(BODY, { key: rotated }))));
    expect(error).toBeInstanceOf(UnavailableError);
    expect((error as UnavailableError).headers['retry-after']).toBe('30');
    expect(github.fetchCount).toBe(2);
    nowMs = T0 + 61 * SECOND;
    await expect(scanning.verify(bytes(BODY), new Headers(github.signedHeaders(BODY, { key: rotated })))).resolves.toHaveLength(1);
    expect(github.fetchCount).toBe(3);
  });

  it('never refuses an alert signed by a newly published key after junk alerts used the refetch: 503, then accepted', async () => {
    const scanning = scanningFor({ unknownKeyCooldownMs: 60 * SECOND });
    await scanning.warmUp();
    const junk = (): Headers => new Headers(github.signedHeaders(BODY, { key: github.newKey({ publish: false }) }));
    await expectRefused(scanning.verify(bytes(BODY), junk())); // refetched, still unknown: the sender's fault
    for (let i = 1; i <= 20; i++) {
      nowMs = T0 + i * SECOND;
      await expectUnavailable(scanning.verify(bytes(BODY), junk()));
    }
    expect(github.fetchCount).toBe(2);
    const published = github.newKey();
    const genuine = (): Promise<unknown> => scanning.verify(bytes(BODY), new Headers(github.signedHeaders(BODY, { key: published })));
    nowMs = T0 + 25 * SECOND;
    const first = await rejection(genuine());
    expect(first).toBeInstanceOf(UnavailableError);
    expect((first as UnavailableError).headers['retry-after']).toBe('35');
    nowMs = T0 + 60 * SECOND; // GitHub retries after Retry-After
    await expect(genuine()).resolves.toHaveLength(1);
    expect(github.fetchCount).toBe(3);
  });

  it("answers 503, not 401, for an unknown identifier that joined another unknown identifier's refetch", async () => {
    const scanning = scanningFor({ unknownKeyCooldownMs: 60 * SECOND });
    await scanning.warmUp();
    const junk = scanning.verify(bytes(BODY), new Headers(github.signedHeaders(BODY, { key: github.newKey({ publish: false }) })));
    // Sent while the junk alert's refetch is in flight, signed by a key that list may predate.
    const joined = scanning.verify(bytes(BODY), new Headers(github.signedHeaders(BODY, { key: github.newKey({ publish: false }) })));
    await expectRefused(junk);
    await expectUnavailable(joined);
    expect(github.fetchCount).toBe(2);
  });

  it('makes one fetch for 50 concurrent first alerts', async () => {
    const scanning = scanningFor();
    const headers = new Headers(github.signedHeaders(BODY));
    const results = await Promise.all(Array.from({ length: 50 }, () => scanning.verify(bytes(BODY), headers)));
    expect(results).toHaveLength(50);
    expect(github.fetchCount).toBe(1);
  });

  it('keeps the list for cacheMs, then fetches it again', async () => {
    const scanning = scanningFor({ cacheMs: 600 * SECOND });
    const headers = new Headers(github.signedHeaders(BODY));
    await scanning.verify(bytes(BODY), headers);
    nowMs = T0 + 599 * SECOND;
    await scanning.verify(bytes(BODY), headers);
    expect(github.fetchCount).toBe(1);
    nowMs = T0 + 601 * SECOND;
    await scanning.verify(bytes(BODY), headers);
    expect(github.fetchCount).toBe(2);
  });

  it('stops accepting a key removed from the list once the list is fetched again', async () => {
    const scanning = scanningFor({ cacheMs: 60 * SECOND });
    const removed = github.currentKey;
    await scanning.verify(bytes(BODY), new Headers(github.signedHeaders(BODY)));
    github.newKey();
    github.removeKey(removed.keyIdentifier);
    nowMs = T0 + 61 * SECOND;
    await expectRefused(scanning.verify(bytes(BODY), new Headers(github.signedHeaders(BODY, { key: removed }))));
  });

  for (const mode of ['down', 'hang', 'garbage', 'error500'] as OutageMode[]) {
    it(`answers 503, never 401, when the list is ${mode}, and recovers`, async () => {
      const scanning = scanningFor();
      github.simulateOutage(mode);
      const headers = new Headers(github.signedHeaders(BODY));
      await expectUnavailable(scanning.verify(bytes(BODY), headers));
      github.simulateOutage(null);
      nowMs = T0 + 2 * SECOND;
      await expect(scanning.verify(bytes(BODY), headers)).resolves.toHaveLength(1);
    });
  }

  it('answers 503 for an unknown identifier while the list cannot be refetched', async () => {
    const scanning = scanningFor();
    await scanning.warmUp();
    github.simulateOutage('down');
    const headers = new Headers(github.signedHeaders(BODY, { key: github.newKey({ publish: false }) }));
    await expectUnavailable(scanning.verify(bytes(BODY), headers));
  });

  const rsaPem = generateKeyPairSync('rsa', { modulusLength: 2048 }).publicKey.export({ type: 'spki', format: 'pem' }) as string;
  it.each<[string, unknown]>([
    ['not an object', [1, 2]],
    ['without public_keys', { keys: [] }],
    ['with an empty list', { public_keys: [] }],
    ['with a key that is not PEM', { public_keys: [{ key_identifier: 'k', key: 'not a key', is_current: true }] }],
    ['with an RSA key only', { public_keys: [{ key_identifier: 'k', key: rsaPem, is_current: true }] }],
    ['with entries missing fields', { public_keys: [{ key: rsaPem }, { key_identifier: 'k' }] }],
  ])('answers 503 for a list %s', async (_what, document) => {
    const fakeFetch = (async () => Response.json(document)) as typeof fetch;
    const scanning = scanningFor({ fetch: fakeFetch });
    await expectUnavailable(scanning.verify(bytes(BODY), new Headers(github.signedHeaders(BODY))));
  });

  it('skips unusable entries and uses the good ones', async () => {
    const good = github.document.public_keys[0]!;
    const document = { public_keys: [{ key_identifier: 'rsa', key: rsaPem }, { key_identifier: 7 }, good] };
    const scanning = scanningFor({ fetch: (async () => Response.json(document)) as typeof fetch });
    await expect(scanning.verify(bytes(BODY), new Headers(github.signedHeaders(BODY)))).resolves.toHaveLength(1);
  });
});

describe('createGitHubSecretScanning: the alert body', () => {
  async function verified(body: string): Promise<unknown> {
    return scanningFor().verify(bytes(body), new Headers(github.signedHeaders(body)));
  }

  it.each([
    ['not JSON', '[{"token": '],
    ['not an array', JSON.stringify({ token: TOKEN, type: 't' })],
    ['a match without a token', JSON.stringify([{ type: 't', url: 'u', source: 's' }])],
    ['a token that is not a string', JSON.stringify([{ token: 42, type: 't' }])],
    ['empty', ''],
  ])('answers 400 for a signed body that is %s, naming the expected shape only', async (_what, body) => {
    const error = await rejection(verified(body));
    expect(error).toBeInstanceOf(InvalidRequestError);
    expect((error as InvalidRequestError).message).toBe('the request body must be a JSON array of {"token", "type", "url", "source"}');
  });

  it('takes an empty list, extra fields, and a missing or null url and source', async () => {
    expect(await verified('[]')).toEqual([]);
    expect(
      await verified(
        JSON.stringify([
          { token: 'x', type: 't', url: null, extra: 1 },
          { token: 'y', type: 't' },
        ]),
      ),
    ).toEqual([
      { token: 'x', type: 't', url: null, source: null },
      { token: 'y', type: 't', url: null, source: null },
    ]);
  });

  it('checks the signature before the body: an unsigned non-JSON body is a 401', async () => {
    await expectRefused(scanningFor().verify(bytes('not json'), new Headers()));
  });
});

describe('createGitHubSecretScanning: options', () => {
  it('checks its options when created', () => {
    for (const bad of [
      { keysUrl: 'http://example.com/keys' },
      { keysUrl: 'not a url' },
      { cacheMs: -1 },
      { fetchTimeoutMs: 0 },
      { unknownKeyCooldownMs: 1.5 },
      { fetch: 'no' },
      { keyUrl: 'https://example.com' },
    ]) {
      expect(() => createGitHubSecretScanning(bad as GitHubSecretScanningOptions), JSON.stringify(bad)).toThrow(TypeError);
    }
    expect(() => createGitHubSecretScanning()).not.toThrow();
    expect(() => createGitHubSecretScanning({ keysUrl: 'http://localhost:9/keys' })).not.toThrow();
  });
});
