import { createServer, type AddressInfo } from 'node:net';
import { LocalWebhookReceiver } from '@drops/auth/testing';
import { describe, expect, it } from 'vitest';
import { NO_PUBLIC_ADDRESS, postWebhook } from './safe-webhook-post.js';

describe('postWebhook', () => {
  const post = (url: string, resolve?: (host: string) => Promise<readonly string[]>, allowLoopback = false) =>
    postWebhook(url, { 'webhook-id': 'msg_1' }, '{}', { allowLoopback, timeoutMs: 2000, ...(resolve ? { resolve } : {}) });

  it('refuses a host that resolves to an inner address, or to any inner address among public ones, before connecting', async () => {
    const receiver = await LocalWebhookReceiver.start();
    try {
      const port = new URL(receiver.url).port;
      // The name resolves to the loopback receiver: refused outside development, so it is never asked.
      expect(await post(`https://hooks.example:${port}/hooks`, async () => ['127.0.0.1'])).toMatchObject({ delivered: false });
      // The owner sees the reason: it never says what an inner name resolved to (the operator's
      // network stays unmapped by an account probing it with webhook URLs).
      expect(await post('https://hooks.example/hooks', async () => ['93.184.215.14', '10.0.0.1'])).toEqual({
        delivered: false,
        reason: NO_PUBLIC_ADDRESS,
        detail: '10.0.0.1 is not public',
      });
      for (const literal of [
        'https://[fe80::1]/hooks',
        'https://169.254.169.254/latest/meta-data',
        `https://[::127.0.0.1]:${port}/hooks`,
      ]) {
        expect(await post(literal), literal).toMatchObject({ delivered: false, reason: NO_PUBLIC_ADDRESS });
      }
      expect(receiver.received).toHaveLength(0);
    } finally {
      await receiver.close();
    }
  });

  it('refuses http outside development, and in development http to anything but loopback', async () => {
    expect(await post('http://hooks.example/hooks', async () => ['93.184.215.14'])).toEqual({
      delivered: false,
      reason: 'not an https URL',
    });
    expect(await post('http://hooks.example/hooks', async () => ['93.184.215.14'], true)).toEqual({
      delivered: false,
      reason: 'http only to a loopback address',
    });
  });

  it('gives a short classification as the reason (shown to the owner), never an error message carrying what it was given', async () => {
    const closed = await new Promise<number>((resolve) => {
      const server = createServer().listen(0, '127.0.0.1', () => {
        const { port } = server.address() as AddressInfo;
        server.close(() => resolve(port));
      });
    });
    expect(await post(`http://127.0.0.1:${closed}/hooks`, undefined, true)).toEqual({ delivered: false, reason: 'failed (ECONNREFUSED)' });
    const secret = `whsec_${Buffer.alloc(32, 7).toString('base64')}`;
    const talkative = Object.assign(new Error(`could not send with ${secret}`), { code: `not a code ${secret}` });
    const failed = await post('https://hooks.example/hooks', () => Promise.reject(talkative));
    expect(failed).toEqual({ delivered: false, reason: NO_PUBLIC_ADDRESS, detail: 'lookup failed' });
  });

  it('gives the owner one reason for every host it will not reach, resolved or not: the operator keeps the detail', async () => {
    const unknownHost = Object.assign(new Error('getaddrinfo ENOTFOUND hooks.example'), { code: 'ENOTFOUND' });
    const hanging = (): Promise<never> => new Promise(() => {});
    const outcomes = [
      await post('https://hooks.example/hooks', () => Promise.reject(unknownHost)),
      await post('https://hooks.example/hooks', async () => []),
      await post('https://hooks.example/hooks', async () => ['10.1.2.3']),
      await post('https://hooks.example/hooks', async () => ['::ffff:192.168.0.1']),
      await post('https://[::10.0.0.1]/hooks'),
      await postWebhook('https://hooks.example/hooks', {}, '{}', { allowLoopback: false, timeoutMs: 50, resolve: hanging }),
    ];
    expect(new Set(outcomes.map((o) => (o.delivered ? 'delivered' : o.reason)))).toEqual(new Set([NO_PUBLIC_ADDRESS]));
    expect(outcomes.map((o) => (o.delivered ? null : o.detail))).toEqual([
      'ENOTFOUND',
      'no address',
      '10.1.2.3 is not public',
      '::ffff:192.168.0.1 is not public',
      '::a00:1 is not public',
      'lookup timed out',
    ]);
  });

  it('connects to the checked address, not to what a second lookup would say (DNS pinned)', async () => {
    const receiver = await LocalWebhookReceiver.start();
    try {
      let lookups = 0;
      const rebinding = async (): Promise<readonly string[]> => (lookups++ === 0 ? ['127.0.0.1'] : ['10.0.0.1']);
      const port = new URL(receiver.url).port;
      expect(await post(`http://rebind.example:${port}/hooks`, rebinding, true)).toEqual({ delivered: true, status: 204 });
      expect(lookups).toBe(1);
      expect(receiver.received[0]?.headers['host']).toBe(`rebind.example:${port}`);
    } finally {
      await receiver.close();
    }
  });
});
