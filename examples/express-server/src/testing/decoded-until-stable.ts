/**
 * What a tolerant reader of the logs would make of them, decoded independently of the server's
 * own decoder: every `%XX` escape decoded left to right, again, until nothing changes.
 */
export function decodedUntilStable(text: string): string {
  for (let previous = ''; previous !== text; ) {
    previous = text;
    text = text.replace(/%[0-9a-fA-F]{2}/g, (sequence) => String.fromCharCode(Number.parseInt(sequence.slice(1), 16)));
  }
  return text;
}
