// Setup file of the tiers that run the generated conformance suite: the target their global setup
// started (provided per tier, so the SQLite and the PostgreSQL tiers of one run each check their
// own service) reaches the suite as the EVGEN_CONFORMANCE_* variables it reads.
import { inject } from 'vitest';

Object.assign(process.env, inject('conformance'));
