import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rawRequest, type RawResponse } from '../testing/raw-http.js';
import { bearer, startTestServer, type TestServer } from '../testing/test-server.js';
import { snapshotOf, UNIFORM_401, UNIFORM_401_BODY } from '@drops/auth/testing';

const BASE64URL = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
const FUZZ_RUNS = 150;

let s: TestServer;
let key: { apiKey: string; id: string };

beforeAll(async () => {
  s = await startTestServer({ backend: 'pglite', env: { MAX_BODY_BYTES: '4096', MAX_DROP_BYTES: '8192' } });
  key = await s.mintKey('header-user');
}, 60_000);
afterAll(() => s?.close(), 30_000);

/** Sends `headers` (already serialised lines) on `GET /whoami` over a raw socket. */
function rawWhoami(headerLines: string[], method = 'GET', path = '/whoami'): Promise<RawResponse> {
  const host = new URL(s.url).host;
  return rawRequest(
    s.url,
    `${method} ${path} HTTP/1.1\r\nHost: ${host}\r\n${headerLines.map((l) => `${l}\r\n`).join('')}Connection: close\r\n\r\n`,
  );
}

function expectUniform401(res: RawResponse): void {
  expect(res.status).toBe(401);
  expect(res.body.toString('latin1')).toBe(UNIFORM_401_BODY);
  expect(res.headers['www-authenticate']).toBe('Bearer realm="drops"');
}

describe('fuzzing the Authorization header', () => {
  // Values a fetch client can send: visible ASCII, spaces and tabs inside, latin1 above 0x7f.
  const headerValue = fc.oneof(
    fc.string({ unit: fc.constantFrom(...' \tBbEeAaRrhp_.-~+/=:,"\'\\'.split('')), maxLength: 80 }),
    // (not DEL, 0x7f: a control character that fetch refuses to send)
    fc.string({
      unit: fc
        .integer({ min: 0x20, max: 0xff })
        .filter((c) => c !== 0x7f)
        .map((c) => String.fromCharCode(c)),
      maxLength: 200,
    }),
    fc
      .tuple(fc.constantFrom('Bearer', 'bearer', 'BEARER', 'Basic', 'Token', 'Bearer:', 'Bearerhp_', ''), fc.string({ maxLength: 120 }))
      .map(([scheme, rest]) => `${scheme} ${rest}`),
    // The valid key with one character changed, cut, or extended.
    fc
      .tuple(fc.nat(), fc.constantFrom(...BASE64URL.split('')), fc.constantFrom('replace', 'cut', 'extend', 'insert'))
      .map(([at, ch, how]) => {
        const k = key.apiKey;
        const i = 3 + (at % (k.length - 3));
        const mutated =
          how === 'replace'
            ? k.slice(0, i) + (k[i] === ch ? (ch === 'A' ? 'B' : 'A') : ch) + k.slice(i + 1)
            : how === 'cut'
              ? k.slice(0, i)
              : how === 'extend'
                ? k + ch
                : k.slice(0, i) + ch + k.slice(i);
        return `Bearer ${mutated}`;
      }),
    // The valid key itself, under odd spacing and casing of the scheme: may succeed.
    fc
      .tuple(fc.constantFrom('Bearer', 'bearer', 'BeArEr'), fc.integer({ min: 1, max: 3 }), fc.constantFrom('', ' ', '\t'))
      .map(([scheme, spaces, tail]) => `${scheme}${' '.repeat(spaces)}${key.apiKey}${tail}`),
  );

  it('answers the uniform 401 or the right account, never a 5xx or another body', async () => {
    await fc.assert(
      fc.asyncProperty(headerValue, fc.constantFrom('/whoami', '/drops', '/billing/plan'), async (value, path) => {
        const res = await s.fetch(path, { headers: { authorization: value } });
        if (res.status === 200) {
          // Only the real key, byte for byte, may authenticate.
          expect(value.trim().split(/ +/).at(-1)).toBe(key.apiKey);
          if (path === '/whoami') expect(((await res.json()) as { accountId: string }).accountId).toBe('header-user');
          else await res.arrayBuffer();
          return;
        }
        expect(await snapshotOf(res)).toEqual(UNIFORM_401);
      }),
      { numRuns: FUZZ_RUNS },
    );
  }, 60_000);

  it('refuses every key-shaped string that is not a key with the uniform 401', async () => {
    const keyShaped = fc.oneof(
      fc.string({ unit: fc.constantFrom(...BASE64URL.split('')), minLength: 43, maxLength: 43 }).map((body) => `hp_${body}`),
      fc.string({ unit: fc.constantFrom(...BASE64URL.split('')), maxLength: 60 }).map((body) => `hp_${body}`),
      fc.string({ unit: fc.constantFrom(...`${BASE64URL}+/=.~`.split('')), minLength: 40, maxLength: 50 }).map((body) => `hp_${body}`),
      fc.string({ unit: fc.constantFrom(...BASE64URL.split('')), minLength: 43, maxLength: 43 }).map((body) => `HP_${body}`),
    );
    await fc.assert(
      fc.asyncProperty(keyShaped, fc.constantFrom('GET /whoami', 'GET /keys', 'POST /deploy'), async (candidate, route) => {
        fc.pre(candidate !== key.apiKey);
        const [method, path] = route.split(' ') as [string, string];
        const res = await s.fetch(path, { method, headers: bearer(candidate), ...(method === 'POST' ? { body: 'x' } : {}) });
        expect(await snapshotOf(res)).toEqual(UNIFORM_401);
      }),
      { numRuns: FUZZ_RUNS },
    );
  }, 60_000);

  it('never answers a 5xx or a differing 401 to raw header bytes (CR, LF, NUL, obs-fold, 8-bit)', async () => {
    const byte = fc.oneof(fc.integer({ min: 0, max: 255 }), fc.constantFrom(0x0d, 0x0a, 0x00, 0x09, 0x20, 0x7f, 0xff));
    await fc.assert(
      fc.asyncProperty(fc.array(byte, { maxLength: 60 }), fc.boolean(), async (bytes, withKey) => {
        const value = Buffer.concat([Buffer.from(withKey ? `Bearer ${key.apiKey}` : 'Bearer '), Buffer.from(bytes)]).toString('latin1');
        const res = await rawWhoami([`Authorization: ${value}`]);
        expect(res.status).toBeGreaterThanOrEqual(200);
        expect(res.status).toBeLessThan(500);
        if (res.status === 401) expectUniform401(res);
        if (res.status === 200) {
          // Only the exact key, with nothing after it but whitespace, may authenticate...
          expect(value.startsWith(`Bearer ${key.apiKey}`)).toBe(true);
          // ...and whatever follows a CR or LF is never part of the credential.
        }
      }),
      { numRuns: 100 },
    );
  }, 60_000);
});

describe('header smuggling', () => {
  it('refuses two Authorization headers with the uniform 401, whichever comes first', async () => {
    const garbage = 'Bearer not-a-key';
    for (const pair of [
      [key.apiKey, garbage],
      [garbage, key.apiKey],
      [key.apiKey, key.apiKey],
      [key.apiKey, ''],
    ]) {
      const lines = pair.map((v) => `Authorization: ${v.startsWith('Bearer') || v === '' ? v : `Bearer ${v}`}`);
      expectUniform401(await rawWhoami(lines));
      expectUniform401(await rawWhoami(lines.map((l) => l.replace('Authorization', 'authorization')).reverse()));
    }
    // The optional-auth route too: two headers are never a fallback to anonymous, nor "take the first".
    const twice = [`Authorization: Bearer ${key.apiKey}`, 'Authorization: Bearer x'];
    const host = new URL(s.url).host;
    const deploy = await rawRequest(
      s.url,
      `POST /deploy HTTP/1.1\r\nHost: ${host}\r\n${twice.join('\r\n')}\r\nContent-Length: 1\r\nConnection: close\r\n\r\nx`,
    );
    expectUniform401(deploy);
  });

  it('takes the credential only from Authorization: not Proxy-Authorization, X-Authorization, cookies or the query', async () => {
    for (const line of [
      `Proxy-Authorization: Bearer ${key.apiKey}`,
      `X-Authorization: Bearer ${key.apiKey}`,
      `X-Forwarded-Authorization: Bearer ${key.apiKey}`,
      `Cookie: authorization=Bearer%20${key.apiKey}`,
    ]) {
      expectUniform401(await rawWhoami([line]));
    }
    expectUniform401(await rawWhoami([], 'GET', `/whoami?access_token=${key.apiKey}`));
    expectUniform401(await rawWhoami([], 'GET', `/whoami?authorization=Bearer%20${key.apiKey}`));
  });

  it('does not let a CR or LF inside the header split off a second header or credential', async () => {
    for (const value of [
      `Bearer x\r\nAuthorization: Bearer ${key.apiKey}`,
      `Bearer\r\n ${key.apiKey}`,
      `Bearer x\rAuthorization: Bearer ${key.apiKey}`,
      `Bearer x\nAuthorization: Bearer ${key.apiKey}`,
      `Bearer ${key.apiKey}\0`,
    ]) {
      const res = await rawWhoami([`Authorization: ${value}`]);
      expect([400, 401], JSON.stringify(value)).toContain(res.status);
      if (res.status === 401) expectUniform401(res);
    }
  });

  it('answers the same 401 for an Authorization header of any length up to the limit, and 431 past it, never a 5xx', async () => {
    for (const length of [1024, 8 * 1024, 15 * 1024]) {
      expectUniform401(await rawWhoami([`Authorization: Bearer ${'a'.repeat(length)}`]));
      expectUniform401(await rawWhoami([`Authorization: Bearer hp_${'A'.repeat(length)}`]));
    }
    const token = s.idp!.mintIdToken({ sub: 'header-user', padding: 'x'.repeat(17 * 1024) });
    for (const lines of [
      [`Authorization: Bearer ${'a'.repeat(20 * 1024)}`],
      [`Authorization: Bearer ${token}`],
      [`Authorization: Bearer ${key.apiKey}`, ...Array.from({ length: 400 }, (_, i) => `X-Filler-${i}: ${'f'.repeat(64)}`)],
      [`Authorization: Bearer ${'a'.repeat(1024 * 1024)}`],
    ]) {
      const res = await rawWhoami(lines);
      expect(res.status).toBe(431);
    }
    // The server is still answering.
    expect((await s.fetch('/whoami', { headers: bearer(key.apiKey) })).status).toBe(200);
  });
});

describe('oversized bodies', () => {
  const json = { 'content-type': 'application/json' };

  it('answers 413 JSON for a body past the limit, on every route that reads one, never a 5xx', async () => {
    const token = await s.token('header-user');
    const big = 'x'.repeat(64 * 1024);
    const cases: Array<[string, string, Record<string, string>]> = [
      ['POST', '/deploy', {}],
      ['POST', '/deploy', bearer(key.apiKey)],
      ['POST', '/keys', { ...bearer(token), ...json }],
      ['PUT', '/vanity/big', { ...bearer(key.apiKey), ...json }],
    ];
    for (const [method, path, headers] of cases) {
      const res = await s.fetch(path, {
        method,
        headers,
        body: method === 'POST' && path === '/keys' ? JSON.stringify({ name: big }) : big,
      });
      expect(res.status, `${method} ${path}`).toBe(413);
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
      expect(typeof ((await res.json()) as { error: unknown }).error).toBe('string');
    }
    // Chunked, with no Content-Length to refuse early.
    const chunks = new ReadableStream({
      start(controller) {
        for (let i = 0; i < 16; i++) controller.enqueue(new TextEncoder().encode('y'.repeat(1024)));
        controller.close();
      },
    });
    const chunked = await s.fetch('/deploy', { method: 'POST', headers: bearer(key.apiKey), body: chunks, duplex: 'half' } as RequestInit);
    expect(chunked.status).toBe(413);
    // An append that would grow a drop past its limit.
    expect((await s.fetch('/deploy?name=growing', { method: 'POST', headers: bearer(key.apiKey), body: 'z'.repeat(4000) })).status).toBe(
      201,
    );
    let last = 200;
    for (let i = 0; i < 3 && last === 200; i++) {
      last = (await s.fetch('/deploy/growing', { method: 'POST', headers: bearer(key.apiKey), body: 'z'.repeat(4000) })).status;
    }
    expect(last).toBe(413);
  });

  it('refuses a bad credential before reading the body: the 401, not a 413', async () => {
    const res = await s.fetch('/keys', { method: 'POST', headers: bearer(key.apiKey), body: 'x'.repeat(64 * 1024) });
    expect(await snapshotOf(res)).toEqual(UNIFORM_401);
    const unknown = await s.fetch('/deploy/growing', {
      method: 'POST',
      headers: bearer(`hp_${'Q'.repeat(43)}`),
      body: 'x'.repeat(64 * 1024),
    });
    expect(await snapshotOf(unknown)).toEqual(UNIFORM_401);
  });
});
