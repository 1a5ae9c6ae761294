import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { closeServer, listenOn } from "./serverLifecycle.js";

/**
 * A listener bound before the service behind it is ready. A request that comes early is
 * accepted and held (no answer, no refusal) until `serve` hands it, and every later one, to
 * the service's listener. A client polling for readiness (near-workspaces polls every 250 ms)
 * then gets its answer as soon as the service can serve, not at its next poll.
 */
export class HoldingListener {
  private held: [IncomingMessage, ServerResponse][] | undefined = [];
  private target: Server | undefined;

  private constructor(
    readonly server: Server,
    /** The bound address as an http:// URL ([v6] bracketed). */
    readonly url: string,
  ) {}

  /** Binds `host:port` (0 = any free port) at once; rejects as `server.listen` does (EADDRINUSE...). */
  static async open(host: string, port: number): Promise<HoldingListener> {
    const server = createServer();
    const url = await listenOn(server, port, host);
    const listener = new HoldingListener(server, url);
    server.on("request", (req: IncomingMessage, res: ServerResponse) => listener.request(req, res));
    return listener;
  }

  /** From now on `target` (an unbound listener) answers: first the held requests, in arrival order. */
  serve(target: Server): void {
    if (this.target !== undefined) throw new Error("the listener is already served");
    this.target = target;
    // Connections are this server's: they keep the target's keep-alive.
    this.server.keepAliveTimeout = target.keepAliveTimeout;
    const held = this.held ?? [];
    this.held = undefined;
    for (const [req, res] of held) if (!res.destroyed) target.emit("request", req, res);
  }

  /** Stops accepting: once served, as any listener closes (in-flight requests finish); before that, held requests are cut. */
  close(): Promise<void> {
    if (this.target === undefined) {
      this.held = undefined;
      this.server.closeAllConnections();
    }
    return closeServer(this.server);
  }

  private request(req: IncomingMessage, res: ServerResponse): void {
    if (this.target !== undefined) this.target.emit("request", req, res);
    else this.held?.push([req, res]);
  }
}
