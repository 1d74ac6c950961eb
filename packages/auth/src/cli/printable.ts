import { redact } from './redact.js';

/**
 * Characters a terminal acts on rather than shows: C0 (tab and line feed too: in text the CLI did
 * not write, a line break can fake a line of output), DEL, C1 (U+0080-U+009F, CSI among them),
 * and the bidirectional marks, embeddings, overrides and isolates that reorder what is shown, and
 * the Unicode line and paragraph separators.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it finds.
const TERMINAL_CONTROLS = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

function escapedControl(control: string): string {
  return `\\u${control.charCodeAt(0).toString(16).padStart(4, '0')}`;
}

/**
 * Text the CLI did not write itself (a file name, a server's message or status line, an
 * argument echoed back) made safe to print: anything shaped like an API key redacted, and every
 * terminal control character escaped as `\uXXXX`. The escape is JSON's own, so a JSON line passed
 * through whole stays valid JSON and parses back to the same strings. Every print of untrusted
 * text goes through here.
 */
export function printable(text: string): string {
  return redact(text).replace(TERMINAL_CONTROLS, escapedControl);
}
