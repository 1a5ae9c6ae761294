/**
 * SIGINT and SIGTERM close `service` and exit (0 when it closed cleanly, 1 when closing failed).
 * Installed before a command prints its banner: until a listener exists, a signal's default
 * action ends the process at once, without closing anything.
 */
export function shutdownOnSignals(service: { close(): Promise<void> }): void {
  let closing = false;
  const shutdown = (signal: string) => {
    if (closing) return;
    closing = true;
    console.log(`shardkit: ${signal}, shutting down`);
    service.close().then(
      () => process.exit(0),
      (error: unknown) => {
        console.error(error);
        process.exit(1);
      },
    );
  };
  process.on("SIGINT", () => shutdown("SIGINT"));
  process.on("SIGTERM", () => shutdown("SIGTERM"));
}
