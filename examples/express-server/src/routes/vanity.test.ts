import { describe, expect, it } from 'vitest';
import { BACKENDS, bearer, useTestServer } from '../testing/test-server.js';

describe.each(BACKENDS)('/vanity (%s)', (backend) => {
  const server = useTestServer({ backend });

  it('claims, lists, re-points, serves and releases vanity names', async () => {
    const s = server();
    const key = bearer((await s.mintKey('vanity-owner')).apiKey);
    await s.fetch('/deploy?name=site-v1', { method: 'POST', headers: { ...key, 'content-type': 'text/plain' }, body: 'one' });
    await s.fetch('/deploy?name=site-v2', { method: 'POST', headers: { ...key, 'content-type': 'text/plain' }, body: 'two' });

    const claimed = await s.fetch('/vanity/home', { method: 'PUT', headers: key, body: JSON.stringify({ slug: 'site-v1' }) });
    expect(claimed.status).toBe(201);
    expect(await claimed.json()).toMatchObject({ name: 'home', slug: 'site-v1', url: `${s.url}/v/home` });
    expect(await (await s.fetch('/v/home')).text()).toBe('one');

    const repointed = await s.fetch('/vanity/home', { method: 'PUT', headers: key, body: JSON.stringify({ slug: 'site-v2' }) });
    expect(repointed.status).toBe(200);
    expect(await (await s.fetch('/v/home')).text()).toBe('two');

    const list = await s.fetch('/vanity', { headers: key });
    const { vanity } = (await list.json()) as { vanity: Array<{ name: string; slug: string }> };
    expect(vanity.map((v) => [v.name, v.slug])).toEqual([['home', 'site-v2']]);
    expect((await s.fetch('/vanity/home', { headers: key })).status).toBe(200);

    expect((await s.fetch('/vanity/home', { method: 'DELETE', headers: key })).status).toBe(204);
    expect((await s.fetch('/vanity/home', { method: 'DELETE', headers: key })).status).toBe(404);
    expect((await s.fetch('/v/home')).status).toBe(404);
    expect(await (await s.fetch('/vanity', { headers: key })).json()).toEqual({ vanity: [] });
  });

  it("answers 409 for a name someone else holds, 404 for a drop that is not the caller's, 400 for bad input", async () => {
    const s = server();
    const alice = bearer(await s.token('vanity-alice'));
    const bob = bearer(await s.token('vanity-bob'));
    await s.fetch('/deploy?name=alice-site', { method: 'POST', headers: alice, body: 'a' });
    await s.fetch('/deploy?name=bob-site', { method: 'POST', headers: bob, body: 'b' });
    const anon = (await (await s.fetch('/deploy', { method: 'POST', body: 'x' })).json()) as { slug: string };

    expect((await s.fetch('/vanity/shared', { method: 'PUT', headers: alice, body: '{"slug":"alice-site"}' })).status).toBe(201);
    const taken = await s.fetch('/vanity/shared', { method: 'PUT', headers: bob, body: '{"slug":"bob-site"}' });
    expect(taken.status).toBe(409);
    expect(typeof ((await taken.json()) as { error: unknown }).error).toBe('string');
    expect((await s.fetch('/vanity/shared', { method: 'DELETE', headers: bob })).status).toBe(404);
    expect((await s.fetch('/vanity/shared', { headers: bob })).status).toBe(404);

    expect((await s.fetch('/vanity/bobs', { method: 'PUT', headers: bob, body: '{"slug":"alice-site"}' })).status).toBe(404);
    expect((await s.fetch('/vanity/bobs', { method: 'PUT', headers: bob, body: JSON.stringify({ slug: anon.slug }) })).status).toBe(404);
    expect((await s.fetch('/vanity/Bad_Name', { method: 'PUT', headers: bob, body: '{"slug":"bob-site"}' })).status).toBe(400);
    expect((await s.fetch('/vanity/ok', { method: 'PUT', headers: bob, body: '{"slug":' })).status).toBe(400);
    expect((await s.fetch('/vanity/ok', { method: 'PUT', headers: bob, body: '{"slug":"bob-site","x":1}' })).status).toBe(400);
    expect((await s.fetch('/vanity/ok', { method: 'PUT', headers: bob })).status).toBe(400);
    expect((await s.fetch('/vanity', { method: 'POST', headers: bob })).status).toBe(405);
    expect(await (await s.fetch('/v/shared')).text()).toBe('a');
  });
});
