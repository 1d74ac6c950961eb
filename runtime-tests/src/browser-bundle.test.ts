import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';

describe('the core bundled for the browser platform', () => {
  it('resolves to the web build and needs neither node:crypto nor Buffer', async () => {
    const result = await build({
      stdin: {
        contents: "export * from '@drops/auth';",
        resolveDir: fileURLToPath(new URL('.', import.meta.url)),
        loader: 'ts',
      },
      bundle: true,
      write: false,
      format: 'esm',
      platform: 'browser',
      metafile: true,
      logLevel: 'silent',
    });
    const inputs = Object.keys(result.metafile.inputs);
    expect(inputs.some((input) => input.includes('/dist/web/index.js'))).toBe(true);
    const code = result.outputFiles[0]!.text;
    expect(code).not.toMatch(/from ["']node:|require\(["'](node:)?crypto["']\)/);
    expect(code).not.toMatch(/\bBuffer\./);
  });
});
