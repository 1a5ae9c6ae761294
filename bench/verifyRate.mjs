// Baseline for the transaction benchmark: node:crypto ed25519 verifications per second on
// this core, with a cached KeyObject (what a server verifying many transactions can do).
import { generateKeyPairSync, sign, verify } from "node:crypto";

const seconds = Number(process.argv[2] ?? 2);
const { publicKey, privateKey } = generateKeyPairSync("ed25519");
const message = Buffer.alloc(32, 7);
const signature = sign(null, message, privateKey);
for (let i = 0; i < 2000; i++) verify(null, message, publicKey, signature); // warm-up
let count = 0;
const started = performance.now();
while (performance.now() - started < seconds * 1000) {
  for (let i = 0; i < 100; i++) verify(null, message, publicKey, signature);
  count += 100;
}
console.log(`verify ${Math.round(count / ((performance.now() - started) / 1000))}`);
