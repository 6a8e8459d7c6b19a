// A mistake in the command line found while running it (a port out of range, a path that cannot
// be a database, a `--base` that is neither a folder nor a commit): one line on stderr and exit
// code 2, like commander's own usage errors. The one class for every command, src/diff's included.
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}
