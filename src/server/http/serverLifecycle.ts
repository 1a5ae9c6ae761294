import type { Server } from "node:http";

/** Binds `server` to `host:port` (0 = any free port); resolves with its http:// URL ([v6] bracketed). */
export async function listenOn(server: Server, port: number, host: string): Promise<string> {
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => resolve());
  });
  const address = server.address();
  if (address === null || typeof address === "string") throw new Error(`listening on ${host}:${port} gave no TCP address (${String(address)})`);
  const shown = address.family === "IPv6" ? `[${address.address}]` : address.address;
  return `http://${shown}:${address.port}`;
}

/** How long in-flight requests may take to finish when a listener closes. */
const CLOSE_GRACE_MS = 5_000;

/** Stops accepting, lets in-flight requests finish (up to a grace period), then closes. */
export function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => {
    if (!server.listening) return resolve();
    const force = setTimeout(() => server.closeAllConnections(), CLOSE_GRACE_MS);
    force.unref();
    server.close(() => {
      clearTimeout(force);
      resolve();
    });
    server.closeIdleConnections();
  });
}
