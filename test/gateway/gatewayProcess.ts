import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { runCli, waitFor, type CliProcess } from "../cli/cliProcess.js";

export interface GatewayUrls {
  rpcUrl: string;
  archivalUrl: string;
  apiUrl: string;
}

/** Starts `shardkit gateway` on free ports and waits for its listener lines. */
export async function startGatewayProcess(args: string[]): Promise<CliProcess & GatewayUrls> {
  const proc = runCli(["gateway", "--rpc-port", "0", "--archival-port", "0", "--api-port", "0", ...args]);
  const text = () => proc.output().stdout;
  try {
    const [, rpcUrl] = await waitFor(text, /regular RPC\s+(http:\/\/\S+)/);
    const [, archivalUrl] = await waitFor(text, /archival RPC\s+(http:\/\/\S+)/);
    const [, apiUrl] = await waitFor(text, /REST API\s+(http:\/\/\S+)\/v1/);
    return { ...proc, rpcUrl: rpcUrl!, archivalUrl: archivalUrl!, apiUrl: apiUrl! };
  } catch (error) {
    proc.child.kill("SIGKILL");
    throw new Error(`${(error as Error).message}\nstderr:\n${proc.output().stderr}`);
  }
}

/** A JSON-RPC POST; the body text is kept as received (the gateway must not re-serialize it). */
export async function postRpc(url: string, body: string, headers: Record<string, string> = {}): Promise<{ status: number; text: string; contentType: string | null }> {
  const response = await fetch(url, { method: "POST", headers: { "content-type": "application/json", ...headers }, body });
  return { status: response.status, text: await response.text(), contentType: response.headers.get("content-type") };
}

export function rpcBody(method: string, params: unknown, id: unknown = "gw"): string {
  return JSON.stringify({ jsonrpc: "2.0", id, method, params });
}

/** A local HTTP server standing in for a broken upstream; counts the requests that reach it. */
export interface StubUpstream {
  url: string;
  requests(): number;
  close(): Promise<void>;
}

/** An upstream that accepts connections and reads requests but never answers (a hung node). */
export async function startHangingUpstream(): Promise<StubUpstream> {
  let count = 0;
  const server = createServer((req) => {
    count++;
    req.resume();
  });
  return listen(server, () => count);
}

/** A free port with nothing listening on it any more (a dead node). */
export async function deadUpstreamUrl(): Promise<string> {
  const stub = await listen(createServer(), () => 0);
  await stub.close();
  return stub.url;
}

async function listen(server: Server, count: () => number): Promise<StubUpstream> {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests: count,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
