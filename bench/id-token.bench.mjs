/**
 * ID tokens: our verifier against the raw signature floors and the libraries a service would
 * otherwise use, one at a time and with 32 verifications in flight.
 */
import { createPublicKey, verify as cryptoVerify, webcrypto } from 'node:crypto';
import { promisify } from 'node:util';
import { createIdTokenVerifier } from '@drops/auth';
import { LocalIdentityProvider } from '@drops/auth/testing';
import { auth as oauth2JwtBearer } from 'express-oauth2-jwt-bearer';
import * as jose from 'jose';
import jsonwebtoken from 'jsonwebtoken';
import jwksRsa from 'jwks-rsa';
import { asyncOpsPerSec, interleaved, syncOpsPerSec } from './measure.mjs';

const GROUP = 'ID token, first sight';
const IN_FLIGHT = 32;
const verifyAsync = promisify(cryptoVerify);

export async function run() {
  const idp = await LocalIdentityProvider.start({ audience: 'drops-bench' });
  try {
    const tokens = Array.from({ length: 64 }, (_, i) => idp.mintIdToken({ sub: `user_${i}` }));
    const pick = (i) => tokens[i & 63];
    const jwk = idp.jwks.keys[0];
    const keyObject = createPublicKey({ key: jwk, format: 'jwk' });
    const cryptoKey = await webcrypto.subtle.importKey('jwk', jwk, { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' }, false, ['verify']);
    const split = tokens.map((t) => {
      const dot = t.lastIndexOf('.');
      return { data: Buffer.from(t.slice(0, dot)), sig: Buffer.from(t.slice(dot + 1), 'base64url') };
    });

    const fresh = createIdTokenVerifier({ ...idp.verifierOptions, maxCachedTokens: 0 });
    const repeat = createIdTokenVerifier(idp.verifierOptions);
    await fresh.warmUp();
    await repeat.warmUp();
    const local = jose.createLocalJWKSet(idp.jwks);
    const remote = jose.createRemoteJWKSet(new URL(idp.jwksUrl));
    const joseOpts = { issuer: idp.issuer, audience: idp.audience, algorithms: ['RS256'] };
    const jwks = jwksRsa({ jwksUri: idp.jwksUrl, cache: true });
    const getKey = (header, cb) => jwks.getSigningKey(header.kid, (err, key) => cb(err, key?.getPublicKey()));
    const jwtVerify = (token) =>
      new Promise((resolve, reject) =>
        jsonwebtoken.verify(token, getKey, { algorithms: ['RS256'], issuer: idp.issuer, audience: idp.audience }, (e, p) =>
          e ? reject(e) : resolve(p),
        ),
      );
    const bearer = oauth2JwtBearer({ issuer: idp.issuer, audience: idp.audience, jwksUri: idp.jwksUrl, tokenSigningAlg: 'RS256' });
    const bearerVerify = (token) =>
      new Promise((resolve, reject) => {
        const headers = { authorization: `Bearer ${token}`, host: 'localhost' };
        const req = {
          headers,
          query: {},
          is: () => false,
          method: 'GET',
          url: '/',
          protocol: 'http',
          get: (h) => headers[h.toLowerCase()],
        };
        bearer(req, {}, (err) => (err ? reject(err) : resolve(req.auth)));
      });
    for (const t of tokens.slice(0, 2)) {
      await Promise.all([
        fresh.verify(t),
        jose.jwtVerify(t, local, joseOpts),
        jose.jwtVerify(t, remote, joseOpts),
        jwtVerify(t),
        bearerVerify(t),
      ]);
    }

    const slice = { ms: 500, warmupMs: 100 };
    const one = (fn) => () => asyncOpsPerSec((i) => fn(pick(i)), slice);
    const many = (fn) => () => asyncOpsPerSec((i) => fn(pick(i)), { ...slice, concurrency: IN_FLIGHT });
    const subtleVerify = (i) => webcrypto.subtle.verify('RSASSA-PKCS1-v1_5', cryptoKey, split[i & 63].sig, split[i & 63].data);

    const serial = await interleaved(
      {
        'floor: crypto.verify (sync, pre-split)': async () =>
          syncOpsPerSec((i) => cryptoVerify('RSA-SHA256', split[i & 63].data, keyObject, split[i & 63].sig), slice),
        'floor: subtle.verify': () => asyncOpsPerSec(subtleVerify, slice),
        'drops-auth verify': one((t) => fresh.verify(t)),
        'jose.jwtVerify, local JWKS': one((t) => jose.jwtVerify(t, local, joseOpts)),
        'jose.jwtVerify, remote JWKS': one((t) => jose.jwtVerify(t, remote, joseOpts)),
        'jsonwebtoken + jwks-rsa': one(jwtVerify),
        'express-oauth2-jwt-bearer': one(bearerVerify),
      },
      4,
    );
    const parallel = await interleaved(
      {
        'floor: crypto.verify (sync, pre-split)': async () =>
          syncOpsPerSec((i) => cryptoVerify('RSA-SHA256', split[i & 63].data, keyObject, split[i & 63].sig), slice),
        'floor: subtle.verify': () => asyncOpsPerSec(subtleVerify, { ...slice, concurrency: IN_FLIGHT }),
        'floor: crypto.verify (threadpool)': () =>
          asyncOpsPerSec((i) => verifyAsync('RSA-SHA256', split[i & 63].data, keyObject, split[i & 63].sig), {
            ...slice,
            concurrency: IN_FLIGHT,
          }),
        'drops-auth verify': many((t) => fresh.verify(t)),
        'jose.jwtVerify, local JWKS': many((t) => jose.jwtVerify(t, local, joseOpts)),
        'jose.jwtVerify, remote JWKS': many((t) => jose.jwtVerify(t, remote, joseOpts)),
        'jsonwebtoken + jwks-rsa': many(jwtVerify),
        'express-oauth2-jwt-bearer': many(bearerVerify),
      },
      4,
    );
    const repeated = await interleaved(
      {
        'drops-auth verify, same token again': () => asyncOpsPerSec(() => repeat.verify(tokens[0]), slice),
        fresh: one((t) => fresh.verify(t)),
      },
      3,
    );

    const rows = [];
    const floorSerial = Math.max(serial['floor: crypto.verify (sync, pre-split)'], serial['floor: subtle.verify']);
    const floorParallel = Math.max(
      parallel['floor: crypto.verify (sync, pre-split)'],
      parallel['floor: subtle.verify'],
      parallel['floor: crypto.verify (threadpool)'],
    );
    for (const [name, ops] of Object.entries(serial)) {
      const row = { group: `${GROUP}, one at a time`, name, opsPerSec: ops };
      if (!name.startsWith('floor')) row.ratio = ops / floorSerial;
      if (name === 'drops-auth verify') {
        row.target = 0.7;
        rows.push({ ...row });
        rows.push({
          group: `${GROUP}, one at a time`,
          name: 'drops-auth verify vs jose.jwtVerify (local)',
          opsPerSec: ops,
          ratio: ops / serial['jose.jwtVerify, local JWKS'],
          target: 3,
        });
        continue;
      }
      rows.push(row);
    }
    for (const [name, ops] of Object.entries(parallel)) {
      const row = { group: `${GROUP}, ${IN_FLIGHT} in flight`, name, opsPerSec: ops };
      if (!name.startsWith('floor')) row.ratio = ops / floorParallel;
      if (name === 'drops-auth verify') row.target = 0.7;
      rows.push(row);
    }
    rows.push({
      group: 'ID token, repeated',
      name: 'drops-auth verify, same token again (vs first sight)',
      opsPerSec: repeated['drops-auth verify, same token again'],
      ratio: repeated['drops-auth verify, same token again'] / repeated.fresh,
    });
    return rows;
  } finally {
    await idp.close();
  }
}
