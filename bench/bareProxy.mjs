// The floor of bench (k): the least a Node HTTP proxy can do per request. A node:http server
// that passes each POST body to one upstream over an undici Pool with the raw dispatch
// handler API and streams the answer back (status, content type, body), with no validation,
// auth, CORS, timeouts or failover. Usage: node bareProxy.mjs UPSTREAM_URL; prints "listening PORT".
import { createServer } from "node:http";
import { Pool } from "undici";

const upstream = new URL(process.argv[2]);
const pool = new Pool(upstream.origin, { connections: 256, pipelining: 1, keepAliveTimeout: 30_000 });
const path = `${upstream.pathname}${upstream.search}`;
const headers = { "content-type": "application/json", accept: "application/json" };

const server = createServer((req, res) => {
  const chunks = [];
  req.on("data", (chunk) => chunks.push(chunk));
  req.on("end", () => {
    pool.dispatch(
      { method: "POST", path, headers, body: chunks.length === 1 ? chunks[0] : Buffer.concat(chunks) },
      {
        onRequestStart() {},
        onResponseStart(_ctl, status, answerHeaders) {
          const out = ["content-type", answerHeaders["content-type"] ?? "application/json"];
          if (answerHeaders["content-length"] !== undefined) out.push("content-length", answerHeaders["content-length"]);
          res.writeHead(status, out);
        },
        onResponseData(ctl, chunk) {
          if (!res.write(chunk)) {
            ctl.pause();
            res.once("drain", () => ctl.resume());
          }
        },
        onResponseEnd() {
          res.end();
        },
        onResponseError() {
          res.destroy();
        },
      },
    );
  });
});
server.keepAliveTimeout = 65_000;
server.listen(0, "127.0.0.1", () => console.log(`listening ${server.address().port}`));
