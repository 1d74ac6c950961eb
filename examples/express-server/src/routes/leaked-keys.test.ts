/**
 * The leaked-key paths of the reference server, end to end with its real app, a dev identity
 * provider and a signed GitHub key list on loopback: revoke by value, GitHub secret scanning, and
 * the events they leave. Every route's bad inputs are in leaked-keys-conformance.test.ts.
 */
import { generateApiKey } from '@drops/auth';
import { snapshotOf, UNIFORM_401, type LocalSecretScanningKeys } from '@drops/auth/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BACKENDS, bearer, startTestServer, type TestServer } from '../testing/test-server.js';

interface KeyEvent {
  type: string;
  keyId: string;
  prefix: string;
  name: string | null;
  at: string;
  source: string;
  actor: string | null;
  ip: string | null;
  userAgent: string | null;
  url?: string;
}

const FOUND_AT = 'https://github.com/octo/leaky/blob/0123abc/.env';

describe.each(BACKENDS)('leaked keys (%s)', (backend) => {
  let github: LocalSecretScanningKeys;
  let s: TestServer;

  beforeAll(async () => {
    s = await startTestServer({ backend, idp: 'dev', github: true });
    github = s.github!;
  }, 60_000);
  afterAll(async () => {
    await s?.close();
  }, 30_000);

  async function mint(token: string, name: string): Promise<{ apiKey: string; id: string; prefix: string }> {
    const res = await s.fetch('/keys', {
      method: 'POST',
      headers: { ...bearer(token), 'user-agent': 'dashboard-test' },
      body: JSON.stringify({ name }),
    });
    expect(res.status).toBe(201);
    return (await res.json()) as { apiKey: string; id: string; prefix: string };
  }

  async function eventsOf(token: string, query = ''): Promise<{ events: KeyEvent[]; next: string | null }> {
    const res = await s.fetch(`/keys/events${query}`, { headers: bearer(token) });
    expect(res.status).toBe(200);
    return (await res.json()) as { events: KeyEvent[]; next: string | null };
  }

  const revokeByValue = (credentials: unknown[]): Promise<Response> =>
    s.fetch('/credentials/revoke', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'user-agent': 'leak-reporter/1.0' },
      body: JSON.stringify({ credentials }),
    });

  it('revokes by value a key minted with a dev token: 202 with no credential, then the 401, and a revoke_by_value event', async () => {
    const token = await s.token('leaky');
    const key = await mint(token, 'ci-main');
    expect((await s.fetch('/whoami', { headers: bearer(key.apiKey) })).status).toBe(200);

    const revoked = await revokeByValue([key.apiKey]);
    expect(revoked.status).toBe(202);
    const accepted = await revoked.text();
    // Revoked in the background after the 202 (its answer waits for nothing the values decide).
    let answer = await s.fetch('/whoami', { headers: bearer(key.apiKey) });
    for (let i = 0; i < 200 && answer.status === 200; i++) {
      await answer.arrayBuffer();
      await new Promise((r) => setTimeout(r, 5));
      answer = await s.fetch('/whoami', { headers: bearer(key.apiKey) });
    }
    expect(await snapshotOf(answer)).toEqual(UNIFORM_401);
    // The same bytes for a key that never existed: the answer confirms nothing.
    const unknown = await revokeByValue([generateApiKey().secret]);
    expect(unknown.status).toBe(202);
    expect(await unknown.text()).toBe(accepted);

    const { events } = await eventsOf(token);
    // (Its first use is written off the hot path, batched: not necessarily yet.)
    const changes = events.filter((e) => e.type !== 'first_used');
    expect(changes.map((e) => [e.type, e.source])).toEqual([
      ['revoked', 'revoke_by_value'],
      ['minted', 'api'],
    ]);
    expect(changes[0]).toMatchObject({
      keyId: key.id,
      prefix: key.prefix,
      name: 'ci-main',
      actor: null,
      ip: '127.0.0.1',
      userAgent: 'leak-reporter/1.0',
    });
    expect(changes[1]).toMatchObject({ keyId: key.id, actor: 'leaky', userAgent: 'dashboard-test' });
    // The secret went through the request body only: no log line holds it.
    expect(s.logs.join('\n')).not.toContain(key.apiKey);
  });

  it('revokes the key GitHub found in a public repository, answers true_positive, and the event says where', async () => {
    const token = await s.token('found-by-github');
    const key = await mint(token, 'deploy');
    const stranger = generateApiKey().secret;
    const body = JSON.stringify([
      { token: key.apiKey, type: 'drops_api_key', url: FOUND_AT, source: 'content' },
      { token: stranger, type: 'drops_api_key', url: FOUND_AT, source: 'content' },
    ]);
    const res = await s.fetch('/secret-scanning/github', {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...github.signedHeaders(body) },
      body,
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual([
      { token_hash: key.id, token_type: 'drops_api_key', label: 'true_positive' },
      { token_hash: expect.stringMatching(/^[0-9a-f]{64}$/), token_type: 'drops_api_key', label: 'false_positive' },
    ]);
    expect(await snapshotOf(await s.fetch('/whoami', { headers: bearer(key.apiKey) }))).toEqual(UNIFORM_401);
    const [event] = (await eventsOf(token)).events;
    expect(event).toMatchObject({ type: 'revoked', keyId: key.id, source: 'github_secret_scanning', actor: 'github', url: FOUND_AT });
    expect(s.logs.join('\n')).not.toContain(key.apiKey);
    expect(s.logs.join('\n')).not.toContain(stranger);
  });

  it('revokes nothing for an alert signed by a key GitHub does not publish, or changed after signing: 401', async () => {
    const token = await s.token('forged-alert');
    const key = await mint(token, 'still-good');
    const body = JSON.stringify([{ token: key.apiKey, type: 'drops_api_key', url: FOUND_AT, source: 'content' }]);
    const stranger = github.newKey({ publish: false });
    for (const [what, headers, sent] of [
      ['unsigned', {}, body],
      ['signed by a key nobody published', github.signedHeaders(body, { key: stranger }), body],
      [
        'signed by a stranger under a published identifier',
        github.signedHeaders(body, { key: stranger, keyIdentifier: github.currentKey.keyIdentifier }),
        body,
      ],
      ['changed by one byte after signing', github.signedHeaders(body), body.replace('content', 'Content')],
    ] as const) {
      const res = await s.fetch('/secret-scanning/github', {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: sent,
      });
      expect(res.status, what).toBe(401);
      expect(typeof ((await res.json()) as { error: unknown }).error, what).toBe('string');
    }
    expect((await s.fetch('/whoami', { headers: bearer(key.apiKey) })).status).toBe(200);
  });

  it("lists an account's events page by page with the cursor, newest first, and only its own", async () => {
    const token = await s.token('pager');
    const minted: string[] = [];
    for (let i = 0; i < 5; i++) minted.push((await mint(token, `key-${i}`)).id);
    await mint(await s.token('someone-else'), 'not-mine');

    const seen: KeyEvent[] = [];
    let query = '?limit=2';
    const pages: number[] = [];
    for (;;) {
      const page = await eventsOf(token, query);
      pages.push(page.events.length);
      seen.push(...page.events);
      if (page.next === null) break;
      query = `?limit=2&cursor=${encodeURIComponent(page.next)}`;
    }
    expect(pages).toEqual([2, 2, 1]);
    expect(seen.map((e) => [e.type, e.keyId])).toEqual(minted.reverse().map((id) => ['minted', id]));
    for (let i = 1; i < seen.length; i++) expect(seen[i - 1]!.at >= seen[i]!.at).toBe(true);

    for (const bad of ['?limit=0', '?limit=101', '?limit=ten', '?cursor=not-a-cursor']) {
      const res = await s.fetch(`/keys/events${bad}`, { headers: bearer(token) });
      expect(res.status, bad).toBe(400);
      expect(typeof ((await res.json()) as { error: unknown }).error).toBe('string');
    }
    expect(await snapshotOf(await s.fetch('/keys/events'))).toEqual(UNIFORM_401);
  });
});

describe('POST /credentials/revoke past REVOKE_BY_VALUE_LIMIT', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer({
      backend: 'pglite',
      idp: 'dev',
      env: { REVOKE_BY_VALUE_LIMIT: '2', REVOKE_BY_VALUE_WINDOW_SECONDS: '600' },
    });
  }, 60_000);
  afterAll(async () => {
    await s?.close();
  });

  it('answers 429 with Retry-After and revokes nothing, then serves again once the window has passed', async () => {
    const key = await s.mintKey('rate-limited');
    const send = (credentials: string[]): Promise<Response> =>
      s.fetch('/credentials/revoke', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ credentials }),
      });
    for (let i = 0; i < 2; i++) expect((await send([generateApiKey().secret])).status).toBe(202);
    const limited = await send([key.apiKey]);
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await s.fetch('/whoami', { headers: bearer(key.apiKey) })).status).toBe(200);
    s.clock.advance(600_000);
    expect((await send([key.apiKey])).status).toBe(202);
    // Revoked in the background after the 202: wait (a bounded count of checks) for the 401.
    let status = (await s.fetch('/whoami', { headers: bearer(key.apiKey) })).status;
    for (let i = 0; i < 200 && status === 200; i++) {
      await new Promise((r) => setTimeout(r, 5));
      status = (await s.fetch('/whoami', { headers: bearer(key.apiKey) })).status;
    }
    expect(status).toBe(401);
  });
});
