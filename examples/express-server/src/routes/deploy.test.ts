import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { BACKENDS, bearer, useTestServer } from '../testing/test-server.js';

const DAY = 24 * 60 * 60 * 1000;

describe.each(BACKENDS)('/deploy (%s)', (backend) => {
  const server = useTestServer({ backend, env: { MAX_BODY_BYTES: '1024', MAX_DROP_BYTES: '2048' } });

  it('takes an anonymous deploy: 201, no owner, expires in 7 days', async () => {
    const s = server();
    const res = await s.fetch('/deploy', { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'hello' });
    expect(res.status).toBe(201);
    const drop = (await res.json()) as { slug: string; url: string; owner: null; createdAt: string; expiresAt: string };
    expect(Object.keys(drop).sort()).toEqual(['createdAt', 'expiresAt', 'owner', 'slug', 'url']);
    expect(drop.owner).toBeNull();
    expect(Date.parse(drop.expiresAt) - Date.parse(drop.createdAt)).toBe(7 * DAY);
    expect(drop.url).toBe(`${s.url}/d/${drop.slug}`);
    expect(res.headers.get('location')).toBe(drop.url);
    const served = await s.fetch(`/d/${drop.slug}`);
    expect(await served.text()).toBe('hello');
  });

  it('deploys with a key or a token: owned, never expires; ?name= sets the slug, 409 when taken', async () => {
    const s = server();
    const { apiKey } = await s.mintKey('deployer');
    const res = await s.fetch('/deploy?name=my-site', { method: 'POST', headers: bearer(apiKey), body: '<p>v1</p>' });
    expect(res.status).toBe(201);
    expect(await res.json()).toMatchObject({ slug: 'my-site', owner: 'deployer', expiresAt: null });
    const taken = await s.fetch('/deploy?name=my-site', { method: 'POST', headers: bearer(await s.token('other')), body: 'x' });
    expect(taken.status).toBe(409);
    expect(typeof ((await taken.json()) as { error: unknown }).error).toBe('string');
    const invalid = await s.fetch('/deploy?name=Not_Valid', { method: 'POST', headers: bearer(apiKey), body: 'x' });
    expect(invalid.status).toBe(400);
  });

  it('frees the name of an expired drop', async () => {
    const s = server();
    const anon = await s.fetch('/deploy', { method: 'POST', body: 'old' });
    const { slug } = (await anon.json()) as { slug: string };
    s.clock.advance(7 * DAY + 1000);
    const res = await s.fetch(`/deploy?name=${slug}`, { method: 'POST', headers: bearer(await s.token('late')), body: 'new' });
    expect(res.status).toBe(201);
    expect(await (await s.fetch(`/d/${slug}`)).text()).toBe('new');
  });

  it('refuses bad bodies with 4xx JSON, never a 5xx', async () => {
    const s = server();
    const big = await s.fetch('/deploy', { method: 'POST', body: 'x'.repeat(1025) });
    expect(big.status).toBe(413);
    expect(((await big.json()) as { error: string }).error).toMatch(/1024/);
    const empty = await s.fetch('/deploy', { method: 'POST' });
    expect(empty.status).toBe(400);
    const gz = await s.fetch('/deploy', { method: 'POST', headers: { 'content-encoding': 'gzip' }, body: gzipSync('hi') });
    expect(gz.status).toBe(415);
    const badType = await s.fetch('/deploy', { method: 'POST', headers: { 'content-type': 'nonsense' }, body: 'x' });
    expect(badType.status).toBe(400);
    expect((await s.fetch('/deploy')).status).toBe(405);
  });

  it('appends to a drop the caller owns; 404 for anyone else and for anonymous drops; 413 past the drop limit', async () => {
    const s = server();
    const owner = bearer((await s.mintKey('appender')).apiKey);
    await s.fetch('/deploy?name=log', { method: 'POST', headers: { ...owner, 'content-type': 'text/plain' }, body: 'a' });
    const appended = await s.fetch('/deploy/log', { method: 'POST', headers: owner, body: 'b' });
    expect(appended.status).toBe(200);
    expect(await appended.json()).toMatchObject({ slug: 'log', size: 2, contentType: 'text/plain', owner: 'appender' });
    expect(await (await s.fetch('/d/log')).text()).toBe('ab');

    const stranger = bearer(await s.token('stranger'));
    expect((await s.fetch('/deploy/log', { method: 'POST', headers: stranger, body: 'c' })).status).toBe(404);
    expect((await s.fetch('/deploy/no-such-drop', { method: 'POST', headers: owner, body: 'c' })).status).toBe(404);
    const anon = (await (await s.fetch('/deploy', { method: 'POST', body: 'x' })).json()) as { slug: string };
    expect((await s.fetch(`/deploy/${anon.slug}`, { method: 'POST', headers: owner, body: 'c' })).status).toBe(404);

    expect((await s.fetch('/deploy/log', { method: 'POST', headers: owner, body: 'x'.repeat(1000) })).status).toBe(200);
    expect((await s.fetch('/deploy/log', { method: 'POST', headers: owner, body: 'x'.repeat(1000) })).status).toBe(200);
    const over = await s.fetch('/deploy/log', { method: 'POST', headers: owner, body: 'x'.repeat(100) });
    expect(over.status).toBe(413);
    expect((await (await s.fetch('/d/log')).arrayBuffer()).byteLength).toBe(2002);
    expect((await s.fetch('/deploy/log', { headers: owner })).status).toBe(405);
  });
});

describe('anonymous deploy rate limit', () => {
  const server = useTestServer({ backend: 'postgres', env: { ANON_DEPLOY_LIMIT: '2', ANON_DEPLOY_WINDOW_SECONDS: '600' } });

  it('limits anonymous deploys per address with a 429 JSON error, and never authenticated ones', async () => {
    const s = server();
    expect((await s.fetch('/deploy', { method: 'POST', body: '1' })).status).toBe(201);
    expect((await s.fetch('/deploy', { method: 'POST', body: '2' })).status).toBe(201);
    const limited = await s.fetch('/deploy', { method: 'POST', body: '3' });
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(typeof ((await limited.json()) as { error: unknown }).error).toBe('string');
    const auth = bearer((await s.mintKey('paying')).apiKey);
    for (let i = 0; i < 4; i++) {
      expect((await s.fetch('/deploy', { method: 'POST', headers: auth, body: `${i}` })).status).toBe(201);
    }
  });
});
