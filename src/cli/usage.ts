// A mistake in the command line found while running it (a port out of range, a path that cannot
// be a database): one line on stderr and exit code 2, like commander's own usage errors.
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}
