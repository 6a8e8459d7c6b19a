// Values of the operating options that the CLI needs before the service loads (no imports: the
// generator's commands do not load pino or prom-client).
export const LOG_LEVELS = ['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** The admin listener's address unless --admin-host says otherwise: this machine only. */
export const DEFAULT_ADMIN_HOST = '127.0.0.1';
