import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { InvalidRequestError } from '../errors/invalid-request-error.js';
import { PayloadTooLargeError } from '../errors/payload-too-large-error.js';
import { readJsonBody } from './read-json-body.js';

const stream = (...chunks: string[]) => Readable.from(chunks.map((c) => Buffer.from(c)));

describe('readJsonBody', () => {
  it('parses a JSON body split across chunks', async () => {
    expect(await readJsonBody(stream('{"na', 'me":"ci"}'), { limit: 100 })).toEqual({ name: 'ci' });
  });

  it('resolves undefined for an empty or blank body', async () => {
    expect(await readJsonBody(stream(), { limit: 100 })).toBeUndefined();
    expect(await readJsonBody(stream('  \n'), { limit: 100 })).toBeUndefined();
  });

  it('refuses a body that is not JSON with a 400', async () => {
    await expect(readJsonBody(stream('name=ci'), { limit: 100 })).rejects.toBeInstanceOf(InvalidRequestError);
  });

  it('refuses a body over the limit with a 413, after reading it to the end', async () => {
    const body = stream('x'.repeat(60), 'y'.repeat(60));
    const error = await readJsonBody(body, { limit: 100 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PayloadTooLargeError);
    expect((error as PayloadTooLargeError).status).toBe(413);
    expect(body.readableEnded).toBe(true);
  });

  it('refuses a declared Content-Length over the limit without reading', async () => {
    const body = stream('{}');
    await expect(readJsonBody(body, { limit: 10, contentLength: '11' })).rejects.toBeInstanceOf(PayloadTooLargeError);
    expect(body.readableEnded).toBe(false);
  });

  it('refuses a compressed body with a 400', async () => {
    await expect(readJsonBody(stream('\x1f\x8b'), { limit: 100, contentEncoding: 'gzip' })).rejects.toBeInstanceOf(InvalidRequestError);
    expect(await readJsonBody(stream('{}'), { limit: 100, contentEncoding: 'identity' })).toEqual({});
  });

  it('counts bytes, not characters', async () => {
    await expect(readJsonBody(stream(JSON.stringify('é'.repeat(30))), { limit: 40 })).rejects.toBeInstanceOf(PayloadTooLargeError);
  });

  it('turns a stream error into a 400', async () => {
    const broken = new Readable({
      read() {
        this.destroy(new Error('socket hang up'));
      },
    });
    await expect(readJsonBody(broken, { limit: 100 })).rejects.toBeInstanceOf(InvalidRequestError);
  });
});
