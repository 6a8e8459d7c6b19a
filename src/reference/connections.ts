// Connections the listener closed without serving them (node:http's 'drop' event, which the
// runtime's connection limits emit with a DroppedConnection): one log line a second at most, with
// how many, why, and the clients that had the most, so a flood tells the operator who without
// flooding the log.
import type { Server } from 'node:http';
import type { ConnectionLimits } from '@evgen/runtime';
import type { ConnectionRefusal, DroppedConnection } from '@evgen/runtime/internal';

/** How long drops are counted before they are logged together. */
export const DROP_LOG_INTERVAL_MS = 1_000;
/** Clients named in a line, those with the most refusals first. */
const TOP_CLIENTS = 5;

export function logDroppedConnections(
  server: Server,
  limits: ConnectionLimits,
  log: (line: string) => void,
): void {
  let dropped = 0;
  let reasons: Partial<Record<ConnectionRefusal, number>> = {};
  let clients = new Map<string, number>();
  server.on('drop', (d?: Partial<DroppedConnection>) => {
    const reason = d?.reason ?? 'limit';
    reasons[reason] = (reasons[reason] ?? 0) + 1;
    if (d?.client) clients.set(d.client, (clients.get(d.client) ?? 0) + 1);
    if (dropped++ > 0) return;
    setTimeout(() => {
      const top = [...clients].sort((a, b) => b[1] - a[1]).slice(0, TOP_CLIENTS);
      log(
        JSON.stringify({
          time: new Date().toISOString(),
          event: 'connections refused',
          count: dropped,
          reasons,
          clients: Object.fromEntries(top),
          maxConnections: limits.maxConnections,
          maxConnectionsPerClient: limits.maxConnectionsPerClient,
          seconds: DROP_LOG_INTERVAL_MS / 1000,
        }),
      );
      dropped = 0;
      reasons = {};
      clients = new Map();
    }, DROP_LOG_INTERVAL_MS).unref();
  });
}
