import { snapshotOf, UNIFORM_401 } from '@drops/auth/testing';
import { describe, expect, it } from 'vitest';
import { bearer, useTestServer } from '../testing/test-server.js';

const MAX_AGE = 600;
const now = (): number => Math.floor(Date.now() / 1000);

describe('MINT_MAX_AUTH_AGE_SECONDS', () => {
  const server = useTestServer({ backend: 'pglite', env: { MINT_MAX_AUTH_AGE_SECONDS: String(MAX_AGE) } });

  it('refuses a mint from an older sign-in with the uniform 401, and mints from a recent one', async () => {
    const s = server();
    const old = s.idp!.mintIdToken({ sub: 'login-age', auth_time: now() - MAX_AGE - 60 });
    expect(await snapshotOf(await s.fetch('/keys', { method: 'POST', headers: bearer(old) }))).toEqual(UNIFORM_401);
    // The same token still lists keys: only minting needs a recent sign-in.
    expect((await s.fetch('/keys', { headers: bearer(old) })).status).toBe(200);
    // The server's own log says why; the answer never does.
    expect(s.logs.some((line) => line.includes('login_too_old'))).toBe(true);

    const recent = s.idp!.mintIdToken({ sub: 'login-age', auth_time: now() - 60 });
    expect((await s.fetch('/keys', { method: 'POST', headers: bearer(recent) })).status).toBe(201);
  });

  it('refuses a token with no auth_time: the age of its sign-in is unknown', async () => {
    const s = server();
    const unknown = s.idp!.mintIdToken({ sub: 'login-age', auth_time: undefined });
    expect(await snapshotOf(await s.fetch('/keys', { method: 'POST', headers: bearer(unknown) }))).toEqual(UNIFORM_401);
  });
});

describe('MINT_MAX_AUTH_AGE_SECONDS with the development identity provider', () => {
  const server = useTestServer({ backend: 'pglite', idp: 'dev', env: { MINT_MAX_AUTH_AGE_SECONDS: String(MAX_AGE) } });

  it('puts auth_time in dev tokens: a sign-in ages, and signing in again mints', async () => {
    const s = server();
    const token = await s.token('dev-login-age');
    expect((await s.fetch('/keys', { method: 'POST', headers: bearer(token) })).status).toBe(201);
    s.clock.advance((MAX_AGE + 1) * 1000);
    expect(await snapshotOf(await s.fetch('/keys', { method: 'POST', headers: bearer(token) }))).toEqual(UNIFORM_401);
    expect((await s.fetch('/keys', { method: 'POST', headers: bearer(await s.token('dev-login-age')) })).status).toBe(201);
  });
});
