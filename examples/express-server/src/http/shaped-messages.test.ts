import type { IncomingMessage, ServerResponse } from 'node:http';
import { describe, expect, it } from 'vitest';
import { bearer, useTestServer } from '../testing/test-server.js';
import { AppRequest, AppResponse } from './shaped-messages.js';

const ownKeys = (o: object): string[] => Reflect.ownKeys(o).map(String);

/**
 * Every property added to a request or response while it is answered costs on every request
 * (see AppRequest): this fails when a change adds one that the classes do not declare.
 */
describe('AppRequest and AppResponse', () => {
  const server = useTestServer({ backend: 'pglite' });

  it('declare every property the app, drops-auth and Express set while answering the account routes', async () => {
    const s = server();
    const { apiKey } = await s.mintKey('shaped');
    const token = await s.token('shaped');
    const added: string[] = [];
    let seen = 0;
    const watch = (req: IncomingMessage, res: ServerResponse): void => {
      expect(req).toBeInstanceOf(AppRequest);
      expect(res).toBeInstanceOf(AppResponse);
      const before = { req: new Set(ownKeys(req)), res: new Set(ownKeys(res)) };
      res.on('close', () => {
        seen++;
        for (const key of ownKeys(req)) if (!before.req.has(key)) added.push(`req.${key} (${req.method} ${req.url})`);
        for (const key of ownKeys(res)) if (!before.res.has(key)) added.push(`res.${key} (${req.method} ${req.url})`);
      });
    };
    s.running.server.prependListener('request', watch);
    try {
      const answers = [
        await s.fetch('/whoami', { headers: bearer(apiKey) }),
        await s.fetch('/whoami', { headers: bearer(token) }),
        await s.fetch('/whoami'),
        await s.fetch('/whoami', { headers: bearer(`hp_${'U'.repeat(43)}`) }),
        await s.fetch('/drops', { headers: bearer(apiKey) }),
        await s.fetch('/keys', { headers: bearer(token) }),
      ];
      expect(answers.map((r) => r.status)).toEqual([200, 200, 401, 401, 200, 200]);
      await Promise.all(answers.map((r) => r.arrayBuffer()));
      await new Promise((resolve) => setTimeout(resolve, 50));
    } finally {
      s.running.server.off('request', watch);
    }
    expect(seen).toBe(6);
    expect(added).toEqual([]);
  });
});
