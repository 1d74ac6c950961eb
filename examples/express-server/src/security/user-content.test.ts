import { request } from 'node:http';
import { describe, expect, it } from 'vitest';
import { bearer, useTestServer, type TestServer } from '../testing/test-server.js';

/** The sandbox every answer serving user bytes carries: scripts run, with an opaque origin. */
const SANDBOX = 'sandbox allow-scripts allow-forms allow-popups allow-popups-to-escape-sandbox allow-modals allow-downloads';

interface Answer {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly body: string;
}

/** A request with a `Host` of our choosing (fetch cannot set it), to the server's real address. */
function get(server: TestServer, path: string, host?: string): Promise<Answer> {
  const url = new URL(server.url);
  return new Promise((resolve, reject) => {
    const req = request({ host: url.hostname, port: url.port, path, headers: { host: host ?? url.host, connection: 'close' } }, (res) => {
      let body = '';
      res.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

function expectUserContentHeaders(answer: Answer, what: string): void {
  expect(answer.headers['content-security-policy'], what).toBe(SANDBOX);
  expect(answer.headers['x-content-type-options'], what).toBe('nosniff');
  expect(answer.headers['cross-origin-resource-policy'], what).toBe('cross-origin');
}

async function deployHtml(server: TestServer, headers: Record<string, string> = {}): Promise<{ slug: string; url: string }> {
  const res = await server.fetch('/deploy', {
    method: 'POST',
    headers: { 'content-type': 'text/html', ...headers },
    body: '<script>document.title = self.origin</script>',
  });
  expect(res.status).toBe(201);
  return (await res.json()) as { slug: string; url: string };
}

describe('user content on the API origin', () => {
  const server = useTestServer({ backend: 'pglite', idp: 'dev' });

  it('serves every answer under /d/ and /v/ sandboxed (an opaque origin), unsniffed, with a resource policy', async () => {
    const s = server();
    const { slug } = await deployHtml(s, bearer(await s.token('alice')));
    const claimed = await s.fetch('/vanity/alice-home', {
      method: 'PUT',
      headers: { ...bearer(await s.token('alice')), 'content-type': 'application/json' },
      body: JSON.stringify({ slug }),
    });
    expect(claimed.status).toBe(201);

    const answers: Array<[string, number]> = [
      [`/d/${slug}`, 200],
      ['/v/alice-home', 200],
      ['/d/no-such-drop', 404],
      ['/v/no-such-name', 404],
      ['/d/Not_A_Slug', 404],
      [`/d/${slug}/more`, 404],
      ['/d/%E0%A4%A', 400], // undecodable: the error answer is sandboxed too
      ['/d/', 404],
    ];
    for (const [path, status] of answers) {
      const answer = await get(s, path);
      expect(answer.status, path).toBe(status);
      expectUserContentHeaders(answer, path);
      expect(answer.headers['content-security-policy'], path).not.toContain('allow-same-origin');
    }
  });
});

describe('user content with DROPS_ORIGIN', () => {
  const server = useTestServer({ backend: 'pglite', idp: 'dev', env: { DROPS_ORIGIN: 'http://drops.localhost:9999' } });
  const DROPS_HOST = 'drops.localhost:9999';

  it('hands out drop and vanity URLs on the drops origin, in deploys, appends and listings', async () => {
    const s = server();
    const token = bearer(await s.token('alice'));
    const anonymous = await deployHtml(s);
    expect(anonymous.url).toBe(`http://drops.localhost:9999/d/${anonymous.slug}`);
    const owned = await deployHtml(s, token);
    expect(owned.url).toBe(`http://drops.localhost:9999/d/${owned.slug}`);
    const appended = await s.fetch(`/deploy/${owned.slug}`, { method: 'POST', headers: token, body: '<p>more</p>' });
    expect(((await appended.json()) as { url: string }).url).toBe(owned.url);
    const listed = (await (await s.fetch('/drops', { headers: token })).json()) as { drops: Array<{ url: string }> };
    expect(listed.drops.map((d) => d.url)).toEqual([owned.url]);
    const vanity = await s.fetch('/vanity/alice-blog', {
      method: 'PUT',
      headers: { ...token, 'content-type': 'application/json' },
      body: JSON.stringify({ slug: owned.slug }),
    });
    expect(((await vanity.json()) as { url: string }).url).toBe('http://drops.localhost:9999/v/alice-blog');
  });

  it('serves drop content only on the drops host; the API host redirects there (308) without serving a byte', async () => {
    const s = server();
    const { slug } = await deployHtml(s);
    const onDrops = await get(s, `/d/${slug}`, DROPS_HOST);
    expect(onDrops.status).toBe(200);
    expect(onDrops.body).toBe('<script>document.title = self.origin</script>');
    expectUserContentHeaders(onDrops, 'drops host');

    for (const path of [`/d/${slug}`, '/v/alice-blog', '/d/no-such-drop']) {
      const onApi = await get(s, `${path}?x=1`);
      expect(onApi.status, path).toBe(308);
      expect(onApi.headers['location'], path).toBe(`http://drops.localhost:9999${path}?x=1`);
      expect(onApi.body, path).not.toContain('<script>');
      expectUserContentHeaders(onApi, path);
    }
    // Not a slug: no redirect to anything made of the path.
    expect((await get(s, '/d/..%2F..%2Fevil')).status).toBe(404);
  });

  it('serves no API, account, dashboard or development route on the drops host', async () => {
    const s = server();
    for (const path of [
      '/keys',
      '/whoami',
      '/drops',
      '/vanity',
      '/billing/plan',
      '/dashboard/',
      '/dashboard/config.json',
      '/healthz',
      '/deploy',
      '/dev/token',
      '/',
    ]) {
      const answer = await get(s, path, DROPS_HOST);
      expect(answer.status, path).toBe(404);
      expectUserContentHeaders(answer, path);
    }
    // The same paths still work on the API host; the dashboard keeps any opener out.
    const dashboard = await get(s, '/dashboard/');
    expect(dashboard.status).toBe(200);
    expect(dashboard.headers['cross-origin-opener-policy']).toBe('same-origin');
    expect((await get(s, '/healthz')).status).toBe(200);
  });
});
