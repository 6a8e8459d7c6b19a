// file:line of spec symbols, found from the YAML positions of the version that has them.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SpecLocator } from '../../../src/diff/locate.js';
import { SPEC_DIR } from '../../support/ir.js';

const lineOf = async (file: string, text: string) =>
  (await readFile(join(SPEC_DIR, '..', file), 'utf8'))
    .split('\n')
    .findIndex((l) => l.includes(text)) + 1;

describe('SpecLocator', () => {
  const locator = new SpecLocator(SPEC_DIR);
  const cases = [
    {
      given: ['spec/types/booking.yaml', ['BookingResponse', 'CreatedDate']],
      want: ['spec/types/booking.yaml', '{ name: CreatedDate,'],
    },
    {
      given: ['spec/types/booking.yaml', ['BookingDetails']],
      want: ['spec/types/booking.yaml', '- name: BookingDetails'],
    },
    {
      given: ['spec/operations.yaml', ['GetBookingsBatch', 'size']],
      want: ['spec/operations.yaml', '{ name: size,'],
    },
    {
      given: ['spec/service.yaml', ['soap11', '.soapAction']],
      want: ['spec/service.yaml', 'soapAction:'],
    },
    {
      given: ['spec/service.yaml', ['.endpointPath']],
      want: ['spec/service.yaml', 'endpointPath:'],
    },
    { given: ['spec/errors.yaml', ['Conflict']], want: ['spec/errors.yaml', 'code: Conflict'] },
  ] as const;
  for (const { given, want } of cases)
    it(`${given[0]} ${given[1].join('.')}`, async () =>
      expect(await locator.line(given[0], given[1])).toBe(await lineOf(want[0], want[1])));

  it('stops at the deepest part it finds', async () =>
    expect(await locator.line('spec/types/booking.yaml', ['BookingDetails', 'NoSuchField'])).toBe(
      await lineOf('spec/types/booking.yaml', '- name: BookingDetails'),
    ));
});
