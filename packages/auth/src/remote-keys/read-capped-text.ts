/**
 * The body of `response` as UTF-8 text, read as it streams in and refused as soon as it passes
 * `maxBytes`: the read is cancelled there (the connection closed), so an endpoint answering
 * hundreds of megabytes costs this process `maxBytes` and a chunk, not the whole answer. A
 * `Content-Length` above the cap is refused before any byte is read; a smaller or missing one is
 * not trusted (the bytes are counted).
 * @internal
 */
export async function readCappedText(response: Response, maxBytes: number): Promise<string> {
  const body = response.body;
  if (Number(response.headers.get('content-length') ?? 0) > maxBytes) {
    await body?.cancel().catch(() => {});
    throw new Error('key list document is too large');
  }
  if (body === null) return '';
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel().catch(() => {});
      throw new Error('key list document is too large');
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.byteLength;
  }
  return new TextDecoder().decode(bytes);
}
