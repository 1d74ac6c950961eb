import { generateApiKey } from '@drops/auth';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { bearer, useTestServer, type TestServer } from './testing/test-server.js';
import { useTwoInstances } from './testing/two-instances.js';
import { untilAcknowledged } from './testing/until-acknowledged.js';

/** What a client sees of an answer: status, challenge and body bytes. */
async function seen(response: Response): Promise<{ status: number; challenge: string | null; body: string }> {
  return { status: response.status, challenge: response.headers.get('www-authenticate'), body: await response.text() };
}

/** The answer to a junk credential: every refusal must look exactly like it. */
async function junk(server: TestServer): Promise<Awaited<ReturnType<typeof seen>>> {
  return seen(await server.fetch('/whoami', { headers: bearer(generateApiKey().secret) }));
}

const whoami = async (server: TestServer, credential: string): Promise<Awaited<ReturnType<typeof seen>>> =>
  seen(await server.fetch('/whoami', { headers: bearer(credential) }));

/** An ID token of `sub` signed in at `authTime` and issued at `iat` (seconds), valid for the hour after `iat`. */
function signedIn(idp: { mintIdToken(claims: Record<string, unknown>): string }, sub: string, authTime: number, iat = authTime): string {
  return idp.mintIdToken({ sub, auth_time: authTime, iat, exp: iat + 3600 });
}

/** Until the wall clock is in the second after `ms`: a sign-in then is after the cut-off. */
async function untilSecondAfter(ms: number): Promise<void> {
  const next = (Math.floor(ms / 1000) + 1) * 1000;
  await new Promise((resolve) => setTimeout(resolve, Math.max(0, next - Date.now()) + 20));
}

/** Scans of the cut-off table (every backend's), as PostgreSQL counts them, once flushed (see two-instances.test.ts). */
async function cutoffTableReads(url: string): Promise<number> {
  await new Promise((resolve) => setTimeout(resolve, 11_000));
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ n: string }>(
      "select (coalesce(idx_scan, 0) + coalesce(seq_scan, 0))::text as n from pg_stat_user_tables where relname = 'drops_auth_session_cutoffs'",
    );
    return Number(rows[0]?.n);
  } finally {
    await client.end();
  }
}

describe('DELETE /sessions: signing out everywhere, on two instances on one PostgreSQL', () => {
  const instances = useTwoInstances();

  it("refuses the caller's token, an older sign-in and a refreshed one on both at once; keys and other accounts go on; a later sign-in works", async () => {
    const { a, b, idp } = instances();
    const now = Math.floor(Date.now() / 1000);
    const caller = signedIn(idp, 'leaving', now - 5);
    const older = signedIn(idp, 'leaving', now - 600);
    const { apiKey } = await a.mintKey('leaving');
    const other = idp.mintIdToken({ sub: 'staying' });
    for (const server of [a, b]) for (const token of [caller, older, other, apiKey]) expect((await whoami(server, token)).status).toBe(200);

    const out = await a.fetch('/sessions', { method: 'DELETE', headers: bearer(caller) });
    expect(out.status).toBe(200);
    expect(out.headers.get('cache-control')).toBe('no-store');
    const { tokensValidAfter } = (await out.json()) as { tokensValidAfter: string };
    expect(new Date(tokensValidAfter).toISOString()).toBe(tokensValidAfter);
    const cutoff = Date.parse(tokensValidAfter);
    expect(cutoff).toBeGreaterThanOrEqual((now - 5) * 1000);

    // Refreshed from the old sign-in after the answer: the same auth_time, a newer iat.
    const refreshed = signedIn(idp, 'leaving', now - 5, Math.floor(Date.now() / 1000));
    for (const server of [b, a]) {
      const refused = await junk(server);
      for (const token of [caller, older, refreshed]) expect(await whoami(server, token)).toEqual(refused);
      expect(await seen(await server.fetch('/keys', { method: 'POST', headers: bearer(refreshed) }))).toEqual(refused);
      expect((await whoami(server, apiKey)).status).toBe(200);
      expect((await whoami(server, other)).status).toBe(200);
    }

    await untilSecondAfter(cutoff);
    const again = idp.mintIdToken({ sub: 'leaving' });
    for (const server of [a, b])
      expect(await (await server.fetch('/whoami', { headers: bearer(again) })).json()).toEqual({
        accountId: 'leaving',
        credential: 'id_token',
      });
  });

  it('is the uniform 401 with an API key, and changes nothing; its event names who and from where', async () => {
    const { a, b, idp } = instances();
    const { apiKey } = await a.mintKey('keyed');
    const token = idp.mintIdToken({ sub: 'keyed' });
    expect(await seen(await b.fetch('/sessions', { method: 'DELETE', headers: bearer(apiKey) }))).toEqual(await junk(b));
    expect((await whoami(a, token)).status).toBe(200);
    expect((await b.fetch('/sessions', { method: 'GET', headers: bearer(token) })).status).toBe(405);

    expect((await b.fetch('/sessions', { method: 'DELETE', headers: { ...bearer(token), 'user-agent': 'sign-out-test' } })).status).toBe(
      200,
    );
    const listed = await a.fetch('/keys/events', { headers: bearer(apiKey) });
    const { events } = (await listed.json()) as { events: Array<Record<string, unknown>> };
    expect(events[0]).toMatchObject({ type: 'sessions_revoked', source: 'api', actor: 'keyed' });
  });

  it('refuses on both instances a cut-off set in plain SQL, one row or many, once its revision is acknowledged', async () => {
    const { a, b, db, idp } = instances();
    const accounts = Array.from({ length: 30 }, (_, i) => `plain-${i}`);
    const tokens = accounts.map((sub) => idp.mintIdToken({ sub }));
    for (const token of tokens) expect((await whoami(b, token)).status).toBe(200);
    const client = new pg.Client({ connectionString: db.url });
    await client.connect();
    try {
      const cutOff = async (sql: string, params: unknown[]): Promise<void> => {
        await client.query('begin');
        await client.query(sql, params);
        const { rows } = await client.query<{ revision: string }>('select drops_auth_taken_revision()::text as revision');
        await client.query('commit');
        await untilAcknowledged(client, rows[0]!.revision);
      };
      await cutOff('insert into drops_auth_session_cutoffs (account_id, tokens_valid_after) values ($1, now())', [accounts[0]]);
      for (const server of [a, b]) expect(await whoami(server, tokens[0]!)).toEqual(await junk(server));
      for (const server of [a, b]) expect((await whoami(server, tokens[1]!)).status).toBe(200);
      await cutOff('insert into drops_auth_session_cutoffs (account_id, tokens_valid_after) select unnest($1::text[]), now()', [
        accounts.slice(1),
      ]);
      for (const server of [a, b]) for (const token of tokens) expect(await whoami(server, token)).toEqual(await junk(server));
    } finally {
      await client.end();
    }
  });

  it('answers 3,000 ID-token requests of a signed-out-then-signed-in account from memory: at most 0.01 cut-off reads each', async () => {
    const { a, b, db, idp } = instances();
    const out = await a.fetch('/sessions', { method: 'DELETE', headers: bearer(idp.mintIdToken({ sub: 'busy' })) });
    await untilSecondAfter(Date.parse(((await out.json()) as { tokensValidAfter: string }).tokensValidAfter));
    const token = bearer(idp.mintIdToken({ sub: 'busy' }));
    const requests = 3_000;
    const before = await cutoffTableReads(db.url);
    for (let sent = 0; sent < requests; sent += 50) {
      const statuses = await Promise.all(Array.from({ length: 50 }, async () => (await b.fetch('/whoami', { headers: token })).status));
      expect(statuses.every((s) => s === 200)).toBe(true);
    }
    expect(((await cutoffTableReads(db.url)) - before) / requests).toBeLessThanOrEqual(0.01);
  }, 90_000);

  it('races of sign-outs and mints leave a state some serial order gives', async () => {
    const { a, b, idp } = instances();
    const now = Math.floor(Date.now() / 1000);
    const token = signedIn(idp, 'racing', now - 5);
    const results = await Promise.all([
      a.fetch('/sessions', { method: 'DELETE', headers: bearer(token) }),
      b.fetch('/sessions', { method: 'DELETE', headers: bearer(token) }),
      a.fetch('/keys', { method: 'POST', headers: bearer(token) }),
      b.fetch('/keys', { method: 'POST', headers: bearer(token) }),
    ]);
    const [outA, outB, ...mints] = results;
    // Each sign-out either ran (200) or came after the other and found the token signed out (401).
    const outs = [outA!, outB!].map((r) => r.status);
    expect(outs).toContain(200);
    for (const status of outs) expect([200, 401]).toContain(status);
    // A mint ran before the sign-out (201, its key works: keys are untouched) or after it (401).
    for (const mint of mints) {
      expect([201, 401]).toContain(mint.status);
      if (mint.status === 201) {
        const { apiKey } = (await mint.json()) as { apiKey: string };
        for (const server of [a, b]) expect((await whoami(server, apiKey)).status).toBe(200);
      }
    }
    for (const server of [a, b]) expect(await whoami(server, token)).toEqual(await junk(server));
    expect(await seen(await a.fetch('/keys', { method: 'POST', headers: bearer(token) }))).toEqual(await junk(a));
  });
});

describe('DELETE /sessions on one instance on PGlite', () => {
  const server = useTestServer({ backend: 'pglite' });

  it("refuses the caller's token at once, keeps its API key, and takes a later sign-in", async () => {
    const s = server();
    const now = Math.floor(Date.now() / 1000);
    const token = signedIn(s.idp!, 'solo', now - 5);
    const { apiKey } = await s.mintKey('solo');
    const out = await s.fetch('/sessions', { method: 'DELETE', headers: bearer(token) });
    expect(out.status).toBe(200);
    const { tokensValidAfter } = (await out.json()) as { tokensValidAfter: string };
    expect(await whoami(s, token)).toEqual(await junk(s));
    expect((await whoami(s, apiKey)).status).toBe(200);
    await untilSecondAfter(Date.parse(tokensValidAfter));
    expect((await whoami(s, s.idp!.mintIdToken({ sub: 'solo' }))).status).toBe(200);
  });
});
