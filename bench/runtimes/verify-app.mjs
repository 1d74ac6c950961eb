/**
 * What each runtime serves for the per-runtime ID token bench: `GET /floor?n=` runs `n`
 * `crypto.subtle.verify` calls on a key imported beforehand and pre-split tokens (the runtime's
 * own floor); `GET /drops?n=` runs `n` first-sight `verifier.verify(token)` (no repeat cache).
 * One at a time, in a loop. The driver (../runtimes.bench.mjs) times the requests from outside,
 * because workerd's clock does not advance while a request computes.
 * Everything is in-process: the key pair, the tokens, and the key set (a `fetch` stub).
 */
import { createIdTokenVerifier } from '@drops/auth';

const RS256 = { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' };
const encoder = new TextEncoder();
const base64Url = (bytes) =>
  btoa(Array.from(bytes, (b) => String.fromCharCode(b)).join(''))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');
const part = (value) => base64Url(encoder.encode(JSON.stringify(value)));

export async function createVerifyBench() {
  const { privateKey, publicKey } = await crypto.subtle.generateKey(
    { ...RS256, modulusLength: 2048, publicExponent: new Uint8Array([1, 0, 1]) },
    true,
    ['sign', 'verify'],
  );
  const jwk = { ...(await crypto.subtle.exportKey('jwk', publicKey)), kid: 'bench', alg: 'RS256', use: 'sig' };
  const issuer = 'https://issuer.example';
  const audience = 'drops-bench';
  const now = Math.floor(Date.now() / 1000);
  const header = part({ alg: 'RS256', typ: 'JWT', kid: 'bench' });
  const tokens = [];
  const split = [];
  for (let i = 0; i < 64; i++) {
    const input = `${header}.${part({ iss: issuer, aud: audience, sub: `user_${i}`, iat: now, exp: now + 3600, auth_time: now })}`;
    const signature = new Uint8Array(await crypto.subtle.sign(RS256, privateKey, encoder.encode(input)));
    tokens.push(`${input}.${base64Url(signature)}`);
    split.push({ data: encoder.encode(input), signature });
  }
  const floorKey = await crypto.subtle.importKey('jwk', jwk, RS256, false, ['verify']);
  const jwks = JSON.stringify({ keys: [jwk] });
  const verifier = createIdTokenVerifier({
    issuer,
    audience,
    jwksUrl: 'http://127.0.0.1/jwks.json',
    maxCachedTokens: 0,
    fetch: async () => new Response(jwks, { headers: { 'content-type': 'application/json', 'cache-control': 'max-age=3600' } }),
  });
  await verifier.warmUp();

  return async function handle(request) {
    const url = new URL(request.url);
    const n = Number(url.searchParams.get('n') ?? 1000);
    if (url.pathname === '/floor') {
      for (let i = 0; i < n; i++) {
        const { signature, data } = split[i & 63];
        if (!(await crypto.subtle.verify(RS256, floorKey, signature, data))) throw new Error('floor: bad signature');
      }
    } else if (url.pathname === '/drops') {
      for (let i = 0; i < n; i++) await verifier.verify(tokens[i & 63]);
    } else {
      return new Response('not found', { status: 404 });
    }
    return new Response(String(n));
  };
}
