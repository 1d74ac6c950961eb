import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rawRequest, type RawResponse } from '../testing/raw-http.js';
import { bearer, startTestServer, type TestServer } from '../testing/test-server.js';
import { UNIFORM_401_BODY } from '@drops/auth/testing';

let s: TestServer;

beforeAll(async () => {
  s = await startTestServer({ backend: 'pglite' });
}, 60_000);
afterAll(() => s?.close(), 30_000);

/** Sends the request line exactly as written: no client-side normalisation of dot segments or encodings. */
function raw(method: string, path: string, headers: Record<string, string> = {}, body = ''): Promise<RawResponse> {
  const host = new URL(s.url).host;
  const lines = Object.entries({ ...headers, 'content-length': String(Buffer.byteLength(body)) }).map(([k, v]) => `${k}: ${v}\r\n`);
  return rawRequest(s.url, `${method} ${path} HTTP/1.1\r\nHost: ${host}\r\n${lines.join('')}Connection: close\r\n\r\n${body}`);
}

const json = (res: RawResponse): { error?: string } => JSON.parse(res.body.toString('utf8')) as { error?: string };

async function activeKeyIds(sub: string): Promise<string[]> {
  const res = await s.fetch('/keys', { headers: bearer(await s.token(sub)) });
  return ((await res.json()) as { keys: Array<{ id: string }> }).keys.map((k) => k.id);
}

/** Path spellings of `id` that an attacker might hope a router, decoder or database treats as `id`. */
function idTricks(id: string): string[] {
  const half = id.length / 2;
  return [
    id.toUpperCase(),
    `${id.slice(0, half)}%2F${id.slice(half)}`,
    `${id.slice(0, half)}/${id.slice(half)}`,
    `${id}%2F`,
    `${id}%00`,
    `${id}%20`,
    `%20${id}`,
    `${id}0`,
    id.slice(0, 63),
    `${id}${'0'.repeat(4096)}`,
    `${id}.json`,
    `${id};x`,
    `./${id}`,
    `../keys/${id}`,
    `%2e%2e%2fkeys%2f${id}`,
    `..%2F${id}`,
    // Unicode look-alikes: fullwidth digits and Cyrillic small a for the Latin ones.
    encodeURIComponent(id.replace(/[0-9]/g, (d) => String.fromCharCode(0xff10 + Number(d)))),
    encodeURIComponent(id.replace(/a/g, '\u0430')),
    encodeURIComponent(`${id}\u200b`),
    `%${id}`,
    `${id}%zz`,
    `${id}%E0%A4%A`,
    // A look-alike of an id without the replaced characters is the id itself (about 1 in 60 ids
    // has no 'a'): not a trick, and the owner's own DELETE of it would rightly be a 204.
  ].filter((trick) => trick !== id);
}

describe('DELETE /keys/:id with path tricks', () => {
  it("never revokes another account's key, and answers it exactly like a key that never existed", async () => {
    const victim = await s.mintKey('path-victim');
    const attacker = bearer(await s.token('path-attacker'));
    await s.mintKey('path-attacker');

    const unknown = await raw('DELETE', `/keys/${'0'.repeat(64)}`, attacker);
    expect(unknown.status).toBe(404);
    const other = await raw('DELETE', `/keys/${victim.id}`, attacker);
    expect([other.status, other.body.toString()]).toEqual([unknown.status, unknown.body.toString()]);

    for (const trick of idTricks(victim.id)) {
      const res = await raw('DELETE', `/keys/${trick}`, attacker);
      expect(res.status, trick).not.toBe(204);
      expect(res.status, trick).toBeGreaterThanOrEqual(400);
      expect(res.status, trick).toBeLessThan(500);
      expect(typeof json(res).error, trick).toBe('string');
    }
    expect(await activeKeyIds('path-victim')).toEqual([victim.id]);
    expect((await s.fetch('/whoami', { headers: bearer(victim.apiKey) })).status).toBe(200);
  });

  it('answers 400 for ids that are not 64 lowercase hex (uppercase, overlong, unicode), and revokes nothing', async () => {
    const own = await s.mintKey('path-owner');
    const auth = bearer(own.apiKey);
    for (const id of [own.id.toUpperCase(), `${own.id}0`, own.id.slice(0, 63), 'g'.repeat(64), `${own.id}${'0'.repeat(4096)}`]) {
      const res = await raw('DELETE', `/keys/${id}`, auth);
      expect(res.status, id.slice(0, 80)).toBe(400);
    }
    for (const trick of idTricks(own.id)) {
      const res = await raw('DELETE', `/keys/${trick}`, auth);
      // A spelling that decodes to exactly the id is the same resource; anything else is refused.
      expect([400, 404], trick).toContain(res.status);
    }
    expect(await activeKeyIds('path-owner')).toEqual([own.id]);
    // Percent-encoding the id's own characters names the same key: that is the one revoke.
    const encoded = [...own.id].map((c) => `%${c.charCodeAt(0).toString(16)}`).join('');
    expect((await raw('DELETE', `/keys/${encoded}`, auth)).status).toBe(204);
    expect(await activeKeyIds('path-owner')).toEqual([]);
    expect(json(await raw('GET', '/whoami', auth)).error).toBe(JSON.parse(UNIFORM_401_BODY).error);
  });
});

describe('/deploy/:slug and /d/:slug with path tricks', () => {
  it("never appends to another account's drop, and answers that like a drop that does not exist", async () => {
    const victim = bearer((await s.mintKey('slug-victim')).apiKey);
    const attacker = bearer((await s.mintKey('slug-attacker')).apiKey);
    expect((await s.fetch('/deploy?name=victim-site', { method: 'POST', headers: victim, body: 'original' })).status).toBe(201);

    const missing = await raw('POST', '/deploy/no-such-site', attacker, 'evil');
    expect(missing.status).toBe(404);
    const foreign = await raw('POST', '/deploy/victim-site', attacker, 'evil');
    expect([foreign.status, foreign.body.toString()]).toEqual([missing.status, missing.body.toString()]);

    const tricks = [
      'VICTIM-SITE',
      'victim-site%2F',
      'victim-site/',
      'victim-site/.',
      './victim-site',
      '../deploy/victim-site',
      '%2e%2e%2fdeploy%2fvictim-site',
      'victim%2Dsite',
      encodeURIComponent('victim\u2010site'),
      encodeURIComponent('v\u0456ctim-site'),
      'victim-site%00',
      'victim-site%zz',
      `victim-site${'-x'.repeat(2000)}`,
    ];
    for (const trick of tricks) {
      const res = await raw('POST', `/deploy/${trick}`, attacker, 'evil');
      expect(res.status, trick).toBeGreaterThanOrEqual(400);
      expect(res.status, trick).toBeLessThan(500);
    }
    expect(await (await s.fetch('/d/victim-site')).text()).toBe('original');
  });

  it('serves only exact live slugs: every other spelling is a JSON 4xx, never a 5xx or another drop', async () => {
    const owner = bearer((await s.mintKey('serve-owner')).apiKey);
    expect((await s.fetch('/deploy?name=served-site', { method: 'POST', headers: owner, body: 'served' })).status).toBe(201);
    for (const trick of [
      'SERVED-SITE',
      'served-site%2F',
      'served-site%2Fx',
      '..%2Fkeys',
      '%2e%2e/keys',
      '../whoami',
      encodeURIComponent('served\u2011site'),
      'served-site%00',
      'served-site%E0%A4%A',
      '%',
      `${'a'.repeat(64)}`,
      `${'a'.repeat(100_00)}`,
    ]) {
      const res = await raw('GET', `/d/${trick}`);
      expect(res.status, trick).toBeGreaterThanOrEqual(400);
      expect(res.status, trick).toBeLessThan(500);
      expect(res.body.toString()).not.toContain('served');
    }
    expect(await (await s.fetch('/d/served-site')).text()).toBe('served');
  });
});

describe('routing tricks around authentication', () => {
  it('never answers an account route without a credential, however the path is spelled', async () => {
    const owner = bearer((await s.mintKey('route-owner')).apiKey);
    expect((await s.fetch('/deploy?name=route-site', { method: 'POST', headers: owner, body: 'r' })).status).toBe(201);
    const paths = [
      '/KEYS',
      '/Keys/',
      '//keys',
      '/keys//',
      '/./keys',
      '/d/../keys',
      '/d/..%2Fkeys',
      '/%6Beys',
      '/keys%2F',
      '/WHOAMI',
      '/whoami;x',
      '/whoami?x',
      '/whoami%00',
      '/drops/',
      '/DROPS',
      '/%64rops',
      '/billing/../billing/plan',
      '/BILLING/plan',
      '/vanity%2F',
      '/deploy/route-site',
      '/Deploy/route-site',
      '/deploy//route-site',
      '/deploy/%2e%2e/deploy/route-site',
      'http://evil.example/whoami',
      '*',
    ];
    for (const path of paths) {
      for (const method of ['GET', 'POST', 'DELETE']) {
        const res = await raw(method, path, {}, method === 'POST' ? 'x' : '');
        expect(res.status, `${method} ${path}`).not.toBe(200);
        expect(res.status, `${method} ${path}`).not.toBe(201);
        expect(res.status, `${method} ${path}`).not.toBe(204);
        expect(res.status, `${method} ${path}`).toBeLessThan(500);
        if (res.status === 401) expect(res.body.toString()).toBe(UNIFORM_401_BODY);
      }
    }
    expect(await (await s.fetch('/d/route-site')).text()).toBe('r');
  });
});
