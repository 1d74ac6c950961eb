import { createServer, type AddressInfo } from 'node:net';
import { LocalWebhookReceiver } from '@drops/auth/testing';
import { describe, expect, it } from 'vitest';
import { postWebhook } from './safe-webhook-post.js';
import { isDeliverableAddress, isLoopbackAddress } from './webhook-address.js';

describe('isDeliverableAddress', () => {
  it('accepts public unicast addresses', () => {
    for (const a of ['93.184.215.14', '8.8.8.8', '1.1.1.1', '2606:4700:4700::1111', '2a00:1450:4001:80b::200e']) {
      expect(isDeliverableAddress(a, false), a).toBe(true);
    }
  });

  it('refuses private, loopback, link-local, unique-local, CGNAT, multicast, unspecified and IPv4-mapped forms of them', () => {
    for (const a of [
      '10.0.0.1',
      '172.16.5.4',
      '192.168.1.1',
      '127.0.0.1',
      '127.1.2.3',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
      '255.255.255.255',
      '224.0.0.1',
      '::',
      '::1',
      'fe80::1',
      'fc00::1',
      'fd12:3456::1',
      'ff02::1',
      '::ffff:10.0.0.1',
      '::ffff:127.0.0.1',
      '::ffff:169.254.169.254',
      '64:ff9b::a00:1',
      '2002:a00:1::',
      'not an address',
      '',
    ]) {
      expect(isDeliverableAddress(a, false), a).toBe(false);
    }
  });

  it('accepts loopback only when allowed (development), and nothing else more', () => {
    expect(isDeliverableAddress('127.0.0.1', true)).toBe(true);
    expect(isDeliverableAddress('::1', true)).toBe(true);
    expect(isDeliverableAddress('::ffff:127.0.0.1', true)).toBe(true);
    expect(isDeliverableAddress('10.0.0.1', true)).toBe(false);
    expect(isDeliverableAddress('169.254.169.254', true)).toBe(false);
    expect(isLoopbackAddress('127.0.0.1')).toBe(true);
    expect(isLoopbackAddress('8.8.8.8')).toBe(false);
  });
});

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
        reason: 'refused: not a public address',
      });
      expect(await post('https://[fe80::1]/hooks')).toEqual({ delivered: false, reason: 'refused: not a public address' });
      expect(await post('https://169.254.169.254/latest/meta-data')).toEqual({
        delivered: false,
        reason: 'refused: not a public address',
      });
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
    const unknownHost = Object.assign(new Error('getaddrinfo ENOTFOUND hooks.example'), { code: 'ENOTFOUND' });
    expect(await post('https://hooks.example/hooks', () => Promise.reject(unknownHost))).toEqual({
      delivered: false,
      reason: 'failed (ENOTFOUND)',
    });
    const secret = `whsec_${Buffer.alloc(32, 7).toString('base64')}`;
    const talkative = Object.assign(new Error(`could not send with ${secret}`), { code: `not a code ${secret}` });
    expect(await post('https://hooks.example/hooks', () => Promise.reject(talkative))).toEqual({ delivered: false, reason: 'failed' });
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
