// What tests of a partial server stub share: the key lookup for the test key, and one handler
// (GetBookingDetails) whose answer follows from its parameter.
import type { BookingDetails, GetBookingDetailsParams } from '@evgen/event-management/types';
import { KEY } from './requests.js';

export const lookupTestKey = (apiKey: string) =>
  Promise.resolve(apiKey === KEY.apiKey ? { secret: KEY.secret, name: KEY.name } : undefined);

export const bookingDetails = ({ bookingId }: GetBookingDetailsParams): BookingDetails => ({
  BookingId: bookingId,
  BookingReference: `PK-${bookingId}`,
  AttendeeCount: 1,
  InvoiceUrl: 'https://example.com/i',
  SecureKey: 'k',
  LeadAttendeeReference: 'A-1',
});
