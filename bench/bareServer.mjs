// Baseline for the throughput benchmark: a bare node:http server that drains each POST and
// answers a fixed body (the bytes of a real shardkit reply), so the ratio isolates our own work.
import { readFileSync } from "node:fs";
import { createServer } from "node:http";

const body = readFileSync(process.argv[2]);
const headers = { "content-type": "application/json", "content-length": body.length };
const server = createServer((req, res) => {
  req.resume();
  req.on("end", () => res.writeHead(200, headers).end(body));
});
server.listen(0, "127.0.0.1", () => console.log(`listening ${server.address().port}`));
