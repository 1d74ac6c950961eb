/**
 * `JSON.stringify(value)` for a string, without the call into V8's runtime when no character
 * needs escaping (printable ASCII but `"` and `\`): the access line serializes several strings per
 * request, and those calls were about 3.5 k of the server's instructions per request
 * (bench/METHOD.md, "A map of its own for every request").
 */
export function jsonString(value: string): string {
  for (let i = 0; i < value.length; i++) {
    const code = value.charCodeAt(i);
    if (code < 0x20 || code > 0x7e || code === 0x22 || code === 0x5c) return JSON.stringify(value);
  }
  return `"${value}"`;
}

/**
 * {@link jsonString} of `prepare(value)`, keeping its last answer: for values a client sends again
 * and again (its address, the method, the path), a string compare instead of the work.
 */
export function lastJsonString(prepare: (value: string) => string = (value) => value): (value: string) => string {
  let last: string | undefined;
  let lastJson = '';
  return (value) => {
    if (value !== last) {
      lastJson = jsonString(prepare(value));
      last = value;
    }
    return lastJson;
  };
}
