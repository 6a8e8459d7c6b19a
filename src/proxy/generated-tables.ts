// The tables of the generated package of this repository (@evgen/event-management): what
// `evgen proxy` and `evgen replay` check and replay against.
import { CONFORMANCE_MODEL } from '@evgen/event-management/conformance';
import { authScheme } from '@evgen/event-management/auth';
import { operations } from '@evgen/event-management/operations';
import { SERVICE, WIRE } from '@evgen/event-management/service';
import type { ServiceTables } from './tables.js';

export const GENERATED_TABLES: ServiceTables = {
  wire: WIRE,
  operations,
  auth: authScheme,
  model: CONFORMANCE_MODEL,
  clockSkewSeconds: SERVICE.clockSkewSeconds,
  timestampFormat: SERVICE.timestampFormat,
};
