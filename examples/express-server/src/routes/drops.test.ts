import { describe, expect, it } from 'vitest';
import { BACKENDS, bearer, useTestServer } from '../testing/test-server.js';

const DAY = 24 * 60 * 60 * 1000;

describe.each(BACKENDS)('/drops, /d/:slug and the sweeper (%s)', (backend) => {
  const server = useTestServer({ backend });

  it("lists the caller's drops only, newest first; anonymous drops are never listed", async () => {
    const s = server();
    const key = bearer((await s.mintKey('lister')).apiKey);
    await s.fetch('/deploy?name=first-one', { method: 'POST', headers: key, body: '1' });
    s.clock.advance(1000);
    await s.fetch('/deploy?name=second-one', { method: 'POST', headers: bearer(await s.token('lister')), body: '22' });
    await s.fetch('/deploy?name=not-mine', { method: 'POST', headers: bearer(await s.token('someone-else')), body: '3' });
    await s.fetch('/deploy', { method: 'POST', body: 'anonymous' });

    const res = await s.fetch('/drops', { headers: key });
    expect(res.status).toBe(200);
    const { drops } = (await res.json()) as { drops: Array<Record<string, unknown>> };
    expect(drops.map((d) => d['slug'])).toEqual(['second-one', 'first-one']);
    expect(drops[0]).toMatchObject({ owner: 'lister', size: 2, expiresAt: null, url: `${s.url}/d/second-one` });
    expect(Object.keys(drops[0]!).sort()).toEqual(
      ['contentType', 'createdAt', 'expiresAt', 'owner', 'size', 'slug', 'updatedAt', 'url'].sort(),
    );
    const empty = await s.fetch('/drops', { headers: bearer(await s.token('nobody-yet')) });
    expect(await empty.json()).toEqual({ drops: [] });
  });

  it('serves a live drop with its exact content type and bytes; unknown is 404', async () => {
    const s = server();
    const bytes = Buffer.from([0, 1, 2, 250, 255]);
    const res = await s.fetch('/deploy', { method: 'POST', headers: { 'content-type': 'image/x-test' }, body: bytes });
    const { slug } = (await res.json()) as { slug: string };
    const served = await s.fetch(`/d/${slug}`);
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('image/x-test');
    expect(served.headers.get('x-content-type-options')).toBe('nosniff');
    expect(Buffer.from(await served.arrayBuffer())).toEqual(bytes);

    const html = await s.fetch('/deploy', { method: 'POST', headers: { 'content-type': 'text/html' }, body: '<b>x</b>' });
    const htmlSlug = ((await html.json()) as { slug: string }).slug;
    expect((await s.fetch(`/d/${htmlSlug}`)).headers.get('content-type')).toBe('text/html');

    const missing = await s.fetch('/d/no-such-drop');
    expect(missing.status).toBe(404);
    expect(typeof ((await missing.json()) as { error: unknown }).error).toBe('string');
    expect((await s.fetch('/d/%E0%A4%A')).status).toBe(400);
  });

  it('stops serving an anonymous drop after 7 days, and the sweeper purges it', async () => {
    const s = server();
    const res = await s.fetch('/deploy', { method: 'POST', body: 'short-lived' });
    const { slug } = (await res.json()) as { slug: string };
    const owned = await s.fetch('/deploy?name=kept-forever', { method: 'POST', headers: bearer(await s.token('keeper')), body: 'k' });
    expect(owned.status).toBe(201);

    s.clock.advance(7 * DAY - 60_000);
    expect((await s.fetch(`/d/${slug}`)).status).toBe(200);
    expect(await s.running.sweeper.sweep()).toBe(0);

    s.clock.advance(120_000);
    expect((await s.fetch(`/d/${slug}`)).status).toBe(404);
    expect(await s.running.sweeper.sweep()).toBeGreaterThanOrEqual(1);
    const { rows } = await s.running.db.query('select slug from drops where slug = $1', [slug]);
    expect(rows).toEqual([]);
    expect((await s.fetch('/d/kept-forever')).status).toBe(200);
  });
});
