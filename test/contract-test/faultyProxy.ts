import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";

/** A request as the proxy forwards it (JSON-RPC body parsed when it is JSON). */
export interface ProxiedRequest {
  method: string;
  /** Path and query, e.g. "/" or "/v1/account/x/full?apiKey=k". */
  path: string;
  headers: Record<string, string>;
  json: any;
  text: string;
}

export interface ProxiedReply {
  status: number;
  contentType: string;
  json: any;
  text: string;
}

/**
 * A fault: may rewrite the request before it reaches the real server, and the reply before it
 * reaches the suite. Returning "hang" from `reply` never answers.
 */
export interface Fault {
  request?(request: ProxiedRequest): void;
  reply?(request: ProxiedRequest, reply: ProxiedReply): void | "hang";
}

export interface FaultyProxy {
  url: string;
  close(): Promise<void>;
}

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

const parse = (text: string): any => {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
};

/** A deliberately faulty variant of a real listener: an HTTP proxy in front of it that applies `fault`. */
export async function startFaultyProxy(targetUrl: string, fault: Fault): Promise<FaultyProxy> {
  const hanging = new Set<() => void>();
  const server: Server = createServer((req, res) => {
    void (async () => {
      const text = await readBody(req);
      const headers = Object.fromEntries(
        Object.entries(req.headers).flatMap(([name, value]) => (typeof value === "string" && name !== "host" && name !== "content-length" ? [[name, value]] : [])),
      );
      const request: ProxiedRequest = { method: req.method ?? "GET", path: req.url ?? "/", headers, json: parse(text), text };
      fault.request?.(request);
      const body = request.json !== undefined && request.method === "POST" ? JSON.stringify(request.json) : request.text;
      const upstream = await fetch(`${targetUrl}${request.path}`, {
        method: request.method,
        headers: request.headers,
        ...(request.method === "POST" && { body }),
      });
      const replyText = await upstream.text();
      const reply: ProxiedReply = {
        status: upstream.status,
        contentType: upstream.headers.get("content-type") ?? "",
        json: parse(replyText),
        text: replyText,
      };
      if (fault.reply?.(request, reply) === "hang") {
        hanging.add(() => res.destroy());
        return;
      }
      const out = reply.json !== undefined && reply.contentType.startsWith("application/json") ? JSON.stringify(reply.json) : reply.text;
      res.writeHead(reply.status, { "content-type": reply.contentType });
      res.end(out);
    })().catch((error: unknown) => {
      res.writeHead(502, { "content-type": "text/plain" });
      res.end(String(error));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: async () => {
      for (const release of hanging) release();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
