// Connections node:http closed at once because `maxConnections` were open (its 'drop' event): one
// log line a second at most, with how many, so a flood tells the operator without flooding the log.
import type { Server } from 'node:http';

/** How long drops are counted before they are logged together. */
export const DROP_LOG_INTERVAL_MS = 1_000;

export function logDroppedConnections(server: Server, log: (line: string) => void): void {
  let dropped = 0;
  server.on('drop', () => {
    if (dropped++ > 0) return;
    setTimeout(() => {
      log(
        JSON.stringify({
          time: new Date().toISOString(),
          event: 'connections refused',
          count: dropped,
          maxConnections: server.maxConnections,
          seconds: DROP_LOG_INTERVAL_MS / 1000,
        }),
      );
      dropped = 0;
    }, DROP_LOG_INTERVAL_MS).unref();
  });
}
