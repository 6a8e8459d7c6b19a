// The browser bundle served at {endpoint}?client.js: the generated client (with the runtime it
// needs) for pages on any origin, and the test forms of the operation pages.
import { startTestForms } from './test-form.js';

export { EventServiceClient } from '@evgen/event-management/client';
export { ServiceError, TransportError } from '@evgen/event-management/errors';

if (typeof document !== 'undefined') startTestForms(document);
