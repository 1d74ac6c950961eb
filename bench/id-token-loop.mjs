// bench/id-token-loop.mjs MODE [N] [WARM]: one verification at a time in a loop (MODE ours | jose | floor | subtle),
// on a fixed key and fixed tokens (KEY=path of a PKCS#8 PEM, else a new key), for bench/callgrind-loop.mjs (CG=1).
import { createPrivateKey, createPublicKey, generateKeyPairSync, sign, verify as cryptoVerify, webcrypto } from 'node:crypto';
import { readFileSync } from 'node:fs';
const { createIdTokenVerifier } = await import(process.env.DIST ?? '@drops/auth');
import * as jose from 'jose';
const [mode = 'ours', nArg = '20000', warmArg = '3000'] = process.argv.slice(2);
const N = Number(nArg),
  WARM = Number(warmArg);
const privateKey = process.env.KEY
  ? createPrivateKey(readFileSync(process.env.KEY))
  : generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
const jwk = { ...createPublicKey(privateKey).export({ format: 'jwk' }), kid: 'k1', alg: 'RS256', use: 'sig' };
const jwks = { keys: [jwk] };
const T = 1_800_000_000;
const issuer = 'http://127.0.0.1:43123',
  audience = 'drops-bench';
const part = (o) => Buffer.from(JSON.stringify(o)).toString('base64url');
const tokens = Array.from({ length: 64 }, (_, i) => {
  const input = `${part({ alg: 'RS256', kid: 'k1', typ: 'JWT' })}.${part({ iss: issuer, aud: audience, sub: `user_${i}`, iat: T, exp: T + 3600, auth_time: T, email: `user_${i}@example.com` })}`;
  return `${input}.${sign('RSA-SHA256', Buffer.from(input), privateKey).toString('base64url')}`;
});
const keyObject = createPublicKey({ key: jwk, format: 'jwk' });
const cryptoKey = await webcrypto.subtle.importKey('jwk', jwk, { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' }, false, ['verify']);
const split = tokens.map((t) => {
  const dot = t.lastIndexOf('.');
  return { data: Buffer.from(t.slice(0, dot)), sig: Buffer.from(t.slice(dot + 1), 'base64url') };
});
const clock = () => (T + 60) * 1000;
const body = JSON.stringify(jwks);
const fresh = createIdTokenVerifier({
  issuer,
  audience,
  jwksUrl: 'http://127.0.0.1/jwks.json',
  clock,
  maxCachedTokens: Number(process.env.CACHE ?? 0),
  fetch: async () => new Response(body, { headers: { 'content-type': 'application/json', 'cache-control': 'max-age=86400' } }),
});
await fresh.warmUp();
const local = jose.createLocalJWKSet(jwks);
const joseOpts = { issuer, audience, algorithms: ['RS256'], currentDate: new Date(clock()) };
const fns = {
  floor: async (i) => cryptoVerify('RSA-SHA256', split[i & 63].data, keyObject, split[i & 63].sig),
  subtle: (i) => webcrypto.subtle.verify('RSASSA-PKCS1-v1_5', cryptoKey, split[i & 63].sig, split[i & 63].data),
  ours: (i) => fresh.verify(tokens[i & 63]),
  jose: (i) => jose.jwtVerify(tokens[i & 63], local, joseOpts),
  noop: async () => {},
};
const fn = fns[mode];
for (let i = 0; i < WARM; i++) await fn(i);
if (process.env.CG) {
  const { createInterface } = await import('node:readline');
  const it = createInterface({ input: process.stdin })[Symbol.asyncIterator]();
  globalThis.gc?.();
  globalThis.gc?.();
  console.log('ready');
  await it.next();
  for (let i = 0; i < N; i++) await fn(i);
  console.log('done');
  await it.next();
  process.exit(0);
}
const rounds = Number(process.env.ROUNDS ?? 1);
const cpu = [],
  wall = [];
for (let r = 0; r < rounds; r++) {
  const c0 = process.cpuUsage(),
    t0 = performance.now();
  for (let i = 0; i < N; i++) await fn(i);
  const c = process.cpuUsage(c0);
  wall.push(((performance.now() - t0) * 1000) / N);
  cpu.push((c.user + c.system) / N);
}
const med = (a) => [...a].sort((x, y) => x - y)[a.length >> 1];
console.log(
  `${mode}: cpu ${med(cpu).toFixed(2)} us/op (min ${Math.min(...cpu).toFixed(2)}), wall ${med(wall).toFixed(2)} (min ${Math.min(...wall).toFixed(2)})`,
);
