// One UsageError for the CLI: evgen diff's --base/--head refusals are the class main.ts and every
// other command use (exit code 2), not a class of their own.
import { describe, expect, it } from 'vitest';
import { UsageError as CliUsageError } from '../../../src/cli/usage.js';
import { UsageError as DiffUsageError } from '../../../src/diff/input.js';

describe('UsageError', () => {
  it('is one class', () => {
    expect(DiffUsageError).toBe(CliUsageError);
  });
});
