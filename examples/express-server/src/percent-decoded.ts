/** A string with its percent-escapes decoded, and where each of its characters came from. */
export interface PercentDecoded {
  /** The text with every `%XX` decoded, again and again until none is left (each byte as one character). */
  readonly text: string;
  /**
   * `starts[i]` is the offset in the original string of the first character that decoded to
   * `text[i]`; `starts[text.length]` is the original's length. So `text.slice(a, b)` came from
   * `original.slice(starts[a], starts[b])`.
   */
  readonly starts: readonly number[];
}

const PERCENT = 0x25;

function hexValue(code: number): number {
  if (code >= 0x30 && code <= 0x39) return code - 0x30;
  const lower = code | 0x20;
  return lower >= 0x61 && lower <= 0x66 ? lower - 0x61 + 10 : -1;
}

/**
 * Decodes `value` as many times as it takes (`hp%255F` is `hp%5F` is `hp_`), in one pass: each
 * character goes on a stack, and whenever the stack ends with `%`, hex, hex, those three become
 * the byte they name, which may complete an escape before it (`%%35F`, `%2%35`). A `%` that starts
 * no escape stays as it is. The result is the same whatever order the escapes are decoded in
 * (none overlaps another), so no decoder, however often it runs, finds more than `text` holds.
 * Bytes are decoded one by one (as Latin-1), never as UTF-8: credentials are ASCII.
 */
export function percentDecoded(value: string): PercentDecoded {
  const codes: number[] = [];
  const starts: number[] = [];
  for (let i = 0; i < value.length; i++) {
    codes.push(value.charCodeAt(i));
    starts.push(i);
    for (let n = codes.length; n >= 3 && codes[n - 3] === PERCENT; n = codes.length) {
      const high = hexValue(codes[n - 2]!);
      const low = hexValue(codes[n - 1]!);
      if (high < 0 || low < 0) break;
      codes.length = n - 2;
      starts.length = n - 2;
      codes[n - 3] = high * 16 + low;
    }
  }
  starts.push(value.length);
  let text = '';
  for (let i = 0; i < codes.length; i += 4096) text += String.fromCharCode(...codes.slice(i, i + 4096));
  return { text, starts };
}
