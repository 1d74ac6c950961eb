import { describe, expect, it } from 'vitest';
import { InvalidRequestError } from '../errors/invalid-request-error.js';
import { generateWebhookSecret } from './webhook-secret.js';
import { MAX_WEBHOOK_URL_LENGTH, parseWebhookUrl } from './webhook-url.js';

describe('parseWebhookUrl', () => {
  it('keeps https URLs up to the length limit, normalised', () => {
    expect(parseWebhookUrl('https://Example.com/hooks?x=1', false)).toBe('https://example.com/hooks?x=1');
    const longest = `https://example.com/${'a'.repeat(MAX_WEBHOOK_URL_LENGTH - 20)}`;
    expect(parseWebhookUrl(longest, false)).toBe(longest);
    expect(() => parseWebhookUrl(`${longest}a`, false)).toThrow(InvalidRequestError);
  });

  it('refuses http except to loopback under allowLoopbackHttp, credentials in the URL and fragments', () => {
    for (const url of ['http://example.com/', 'http://127.0.0.1/', 'http://localhost:8080/', 'ws://example.com/', 'file:///etc/passwd']) {
      expect(() => parseWebhookUrl(url, false), url).toThrow(InvalidRequestError);
    }
    for (const url of ['http://127.0.0.1:9/h', 'http://localhost:8080/', 'http://[::1]/']) expect(parseWebhookUrl(url, true)).toBe(url);
    for (const url of ['http://10.0.0.1/', 'http://example.com/', 'https://u:p@example.com/', 'https://example.com/#x']) {
      expect(() => parseWebhookUrl(url, true), url).toThrow(InvalidRequestError);
    }
  });
});

describe('generateWebhookSecret', () => {
  it('is whsec_ and the standard base64 of 32 random bytes', () => {
    const secret = generateWebhookSecret(() => new Uint8Array(32).fill(0xfb));
    expect(secret).toBe(`whsec_${Buffer.alloc(32, 0xfb).toString('base64')}`);
    expect(generateWebhookSecret()).not.toBe(generateWebhookSecret());
  });
});
