import { describe, expect, it } from 'vitest';
import { InvalidRequestError } from '../errors/invalid-request-error.js';
import { generateWebhookSecret } from './webhook-secret.js';
import { MAX_WEBHOOK_URL_LENGTH, parseWebhookUrl } from './webhook-url.js';

describe('parseWebhookUrl', () => {
  it('keeps https URLs up to the length limit, normalised', async () => {
    expect(await parseWebhookUrl('https://Example.com/hooks?x=1', false)).toBe('https://example.com/hooks?x=1');
    const longest = `https://example.com/${'a'.repeat(MAX_WEBHOOK_URL_LENGTH - 20)}`;
    expect(await parseWebhookUrl(longest, false)).toBe(longest);
    await expect(parseWebhookUrl(`${longest}a`, false)).rejects.toThrow(InvalidRequestError);
  });

  it('refuses http except to loopback under allowLoopbackHttp, credentials in the URL and fragments', async () => {
    for (const url of ['http://example.com/', 'http://127.0.0.1/', 'http://localhost:8080/', 'ws://example.com/', 'file:///etc/passwd']) {
      await expect(parseWebhookUrl(url, false), url).rejects.toThrow(InvalidRequestError);
    }
    for (const url of ['http://127.0.0.1:9/h', 'http://localhost:8080/', 'http://[::1]/'])
      expect(await parseWebhookUrl(url, true)).toBe(url);
    for (const url of ['http://10.0.0.1/', 'http://example.com/', 'https://u:p@example.com/', 'https://example.com/#x']) {
      await expect(parseWebhookUrl(url, true), url).rejects.toThrow(InvalidRequestError);
    }
  });

  it('refuses a host that is a non-public address in any spelling; keeps public literals', async () => {
    for (const url of ['https://[::127.0.0.1]/', 'https://0x0a.1/', 'https://[64:ff9b::10.0.0.1]/', 'https://[::ffff:a9fe:a9fe]/']) {
      await expect(parseWebhookUrl(url, false), url).rejects.toThrow(InvalidRequestError);
      await expect(parseWebhookUrl(url, true), url).rejects.toThrow(InvalidRequestError);
    }
    expect(await parseWebhookUrl('https://93.184.215.14/h', false)).toBe('https://93.184.215.14/h');
    expect(await parseWebhookUrl('https://[2606:4700:4700::1111]/h', false)).toBe('https://[2606:4700:4700::1111]/h');
    expect(await parseWebhookUrl('https://[::ffff:93.184.215.14]/h', false)).toBe('https://[::ffff:5db8:d70e]/h');
    await expect(parseWebhookUrl('https://127.0.0.1/h', false)).rejects.toThrow(InvalidRequestError);
    expect(await parseWebhookUrl('https://127.0.0.1/h', true)).toBe('https://127.0.0.1/h');
  });
});

describe('generateWebhookSecret', () => {
  it('is whsec_ and the standard base64 of 32 random bytes', () => {
    const secret = generateWebhookSecret(() => new Uint8Array(32).fill(0xfb));
    expect(secret).toBe(`whsec_${Buffer.alloc(32, 0xfb).toString('base64')}`);
    expect(generateWebhookSecret()).not.toBe(generateWebhookSecret());
  });
});
