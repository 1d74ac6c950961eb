import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import { UNAUTHENTICATED_MESSAGE } from '@drops/auth';
import { describe, expect, it } from 'vitest';
import { useTestServer } from './testing/test-server.js';

const run = promisify(execFile);

async function quickstartScript(): Promise<string> {
  const readme = await readFile(new URL('../README.md', import.meta.url), 'utf8');
  const match = /<!-- quickstart:begin -->\n```sh\n([\s\S]*?)```\n<!-- quickstart:end -->/.exec(readme);
  if (match === null) throw new Error('README.md has no quickstart block');
  return match[1]!;
}

describe('the README quickstart', () => {
  const server = useTestServer({ backend: 'pglite', idp: 'dev' });

  it('starts the way the README says', async () => {
    const readme = await readFile(new URL('../README.md', import.meta.url), 'utf8');
    expect(readme).toContain('npx --yes pnpm@10 install && npx --yes pnpm@10 start');
    const root = JSON.parse(await readFile(new URL('../../../package.json', import.meta.url), 'utf8')) as {
      scripts: Record<string, string>;
    };
    expect(root.scripts['start']).toContain('@drops/example-express-server start');
  });

  it("runs the tests with the root README's command, the one .ci/run runs", async () => {
    const readme = await readFile(new URL('../../../README.md', import.meta.url), 'utf8');
    const ci = await readFile(new URL('../../../.ci/run', import.meta.url), 'utf8');
    const command = 'npx --yes pnpm@10 install && npx --yes pnpm@10 test';
    expect(readme).toContain(`\n${command}\n`);
    expect(ci).toContain(`\n${command}\n`);
    expect(readme).toContain('\nnpx --yes pnpm@10 install && npx --yes pnpm@10 start\n');
  });

  it('runs as written: token, mint, deploy, list, revoke, 401, revoke by value, 401, the event', async () => {
    const s = server();
    const { stdout } = await run('bash', ['-euo', 'pipefail', '-c', await quickstartScript()], {
      env: { PATH: process.env['PATH'] ?? '', BASE: s.url },
      timeout: 30_000,
    });
    const lines = stdout.trim().split('\n');
    expect(lines).toHaveLength(10);
    const [minted, deployed, page, list, revoked, refused, status, byValue, leakedStatus, events] = lines as [
      string,
      string,
      string,
      string,
      string,
      string,
      string,
      string,
      string,
      string,
    ];

    const key = JSON.parse(minted) as { apiKey: string; id: string; name: string };
    expect(key.apiKey).toMatch(/^hp_[A-Za-z0-9_-]{43}$/);
    expect(key.name).toBe('laptop');
    const drop = JSON.parse(deployed) as { slug: string; owner: string; url: string; expiresAt: null };
    expect(drop).toMatchObject({ owner: 'dev:alice', expiresAt: null, url: `${s.url}/d/${drop.slug}` });
    expect(page).toBe('<h1>Hello from drops</h1>');
    expect((JSON.parse(list) as { drops: Array<{ slug: string }> }).drops.map((d) => d.slug)).toEqual([drop.slug]);
    expect(revoked).toBe('204');
    expect(JSON.parse(refused)).toEqual({ error: UNAUTHENTICATED_MESSAGE });
    expect(status).toBe('401');
    expect(byValue).toBe('202');
    expect(leakedStatus).toBe('401');
    const {
      events: [event],
    } = JSON.parse(events) as { events: Array<{ type: string; source: string; actor: string | null }> };
    expect(event).toMatchObject({ type: 'revoked', source: 'revoke_by_value', actor: null });
  }, 60_000);
});
