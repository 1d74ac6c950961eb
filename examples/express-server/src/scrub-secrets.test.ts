/**
 * The log scrubber against percent-encoding: a client (or a proxy, or a script that encodes twice)
 * may send a credential in a URL with any of its characters escaped; the line logged holds neither
 * the credential nor anything that decodes to it, however many times it is decoded.
 */
import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { looksLikeSecret, scrubSecrets } from './logger.js';
import { percentDecoded } from './percent-decoded.js';
import { decodedUntilStable } from './testing/decoded-until-stable.js';

const BASE64URL = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
const base64url = (bytes: Uint8Array): string => Buffer.from(bytes).toString('base64url');

/** An API key: `hp_` and 43 base64url characters. */
const apiKey = fc.uint8Array({ minLength: 32, maxLength: 32 }).map((bytes) => `hp_${base64url(bytes)}`);

/** A JWT shaped as identity providers issue them: a JSON header and payload, a signature. */
const jwt = fc
  .record({
    kid: fc.string({ maxLength: 20 }),
    sub: fc.string({ minLength: 1, maxLength: 40 }),
    iat: fc.nat(),
    signature: fc.uint8Array({ minLength: 16, maxLength: 96 }),
  })
  .map(({ kid, sub, iat, signature }) =>
    [
      base64url(Buffer.from(JSON.stringify({ alg: 'RS256', typ: 'JWT', kid }))),
      base64url(Buffer.from(JSON.stringify({ sub, iat, exp: iat + 3600 }))),
      base64url(signature),
    ].join('.'),
  );

/** One character as sent: as it is, or `%XX` in either case of hex (mixed too), encoded up to three times. */
const encodedChar = (char: string): fc.Arbitrary<string> =>
  fc
    .record({ times: fc.integer({ min: 0, max: 3 }), cases: fc.array(fc.boolean(), { minLength: 6, maxLength: 6 }) })
    .map(({ times, cases }) => {
      let sent = char;
      for (let round = 0; round < times; round++) {
        const hex = sent.charCodeAt(0).toString(16).padStart(2, '0');
        const digits = [...hex].map((digit, i) => (cases[(round * 2 + i) % cases.length] ? digit.toUpperCase() : digit)).join('');
        sent = `%${digits}${sent.slice(1)}`;
      }
      return sent;
    });

/** `secret` with each character independently kept or percent-encoded. */
const encodedSecret = (secret: string): fc.Arbitrary<string> => fc.tuple(...[...secret].map(encodedChar)).map((chars) => chars.join(''));

/** Where a client puts it: a path segment, a query value, among other parameters. */
const placement = fc.constantFrom(
  (s: string) => `/d/${s}`,
  (s: string) => `/keys/${s}/roll`,
  (s: string) => `/d/x?key=${s}`,
  (s: string) => `/whoami?a=1&token=${s}&b=%2F`,
  (s: string) => `/deploy?name=site&${s}`,
  (s: string) => `/d/${s}?t=${s}`,
);

function expectNoTrace(scrubbed: string, secret: string): void {
  const decoded = decodedUntilStable(scrubbed);
  expect(decoded).not.toContain(secret);
  // Nor a long piece of it: the random part of a key, a JWT's signature.
  const telling = secret.startsWith('hp_') ? secret.slice(3) : secret.slice(secret.lastIndexOf('.') + 1);
  if (telling.length >= 16) expect(decoded).not.toContain(telling);
  expect(decoded).toContain('[redacted]');
}

describe('scrubSecrets', () => {
  it('redacts any percent-encoding of an API key or a JWT, anywhere in a path or query', () => {
    fc.assert(
      fc.property(
        fc.oneof(apiKey, jwt).chain((secret) => fc.tuple(fc.constant(secret), encodedSecret(secret), placement)),
        ([secret, sent, place]) => {
          const scrubbed = scrubSecrets(place(sent));
          expectNoTrace(scrubbed, secret);
          expect(looksLikeSecret(place(sent))).toBe(true);
          expect(looksLikeSecret(scrubbed)).toBe(false);
        },
      ),
      { numRuns: 500 },
    );
  }, 60_000);

  it('keeps the rest of the URL as it was sent', () => {
    const key = `hp_${'A'.repeat(42)}Q`;
    expect(scrubSecrets(`/d/x?key=${key.replace('_', '%5F')}&next=%2Fhome`)).toBe('/d/x?key=[redacted]&next=%2Fhome');
    expect(scrubSecrets(`/a%20b/${key.slice(0, 10)}%2541${key.slice(11)}/c`)).toBe('/a%20b/[redacted]/c');
    expect(scrubSecrets('/search?q=100%25%20sure&p=%zz')).toBe('/search?q=100%25%20sure&p=%zz');
    expect(scrubSecrets('/d/eyJhbGciOiJSUzI1NiJ9%2eeyJzdWIiOiJhIn0%2Ec2ln?x=1')).toBe('/d/[redacted]?x=1');
  });

  it('decodes escapes that an escape completes, in one pass', () => {
    expect(percentDecoded('%%35F').text).toBe('_');
    expect(percentDecoded('%5%46').text).toBe('_');
    expect(percentDecoded('%2%35F').text).toBe('%F');
    expect(percentDecoded('%252541').text).toBe('A');
    expect(percentDecoded('a%zz%4').text).toBe('a%zz%4');
    const { text, starts } = percentDecoded('x%2541y');
    expect(text).toBe('xAy');
    expect(starts).toEqual([0, 1, 6, 7]);
  });

  it('is the scrubber of old on a value with no %', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom(...BASE64URL, '.', '/', '?', '=', '&', 'h', 'p', 'eyJ') }), (value) => {
        const old = value.replace(/hp_[A-Za-z0-9_-]{20,}|eyJ[A-Za-z0-9_-]*\.[A-Za-z0-9_-]+\.?[A-Za-z0-9_-]*/g, '[redacted]');
        expect(scrubSecrets(value)).toBe(old);
      }),
    );
  });

  it('a key id (the hash) is not a secret', () => {
    const id = createHash('sha256').update('x').digest('hex');
    expect(scrubSecrets(`/keys/${id}`)).toBe(`/keys/${id}`);
  });
});
