// Floor for the admission benchmark (d): a bare node:http server that does only what no
// admission can skip for a `broadcast_tx_async` — read the body, JSON.parse it, base64- and
// Borsh-decode the signed transaction, hash it, verify its ed25519 signature (our own codec
// and verifier from dist/, with their KeyObject cache) and answer the base58 hash. No state
// checks, no pool, no validation of the envelope: what shardkit spends above this is its own.
import { createServer } from "node:http";
import { base58Encode } from "@shardkit/primitives/base58";
import { decodeSignedTransaction, verifyTransactionSignature } from "../dist/src/chain/transaction/index.js";

const server = createServer((req, res) => {
  const chunks = [];
  req.on("data", (chunk) => chunks.push(chunk));
  req.on("end", () => {
    const request = JSON.parse(Buffer.concat(chunks).toString());
    const tx = decodeSignedTransaction(Buffer.from(request.params[0], "base64"));
    const body = verifyTransactionSignature(tx)
      ? JSON.stringify({ jsonrpc: "2.0", id: request.id, result: base58Encode(tx.hash) })
      : JSON.stringify({ jsonrpc: "2.0", id: request.id, error: { code: -32000, message: "invalid signature" } });
    res.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(body) }).end(body);
  });
});
server.listen(0, "127.0.0.1", () => console.log(`listening http://127.0.0.1:${server.address().port}`));
