/**
 * A mistake in how the command was called (unknown option, missing argument, path that does not
 * exist). The CLI prints the message and exits with status 2.
 */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}
