// Baseline for the transaction benchmark: node:crypto ed25519 verifications per second on
// this core, with a cached KeyObject (what a server verifying many transactions can do).
// Prints the wall-clock rate and the rate per CPU second of this process (the latter is what
// a busy, shared machine disturbs least).
import { generateKeyPairSync, sign, verify } from "node:crypto";

const seconds = Number(process.argv[2] ?? 2);
const { publicKey, privateKey } = generateKeyPairSync("ed25519");
const message = Buffer.alloc(32, 7);
const signature = sign(null, message, privateKey);
for (let i = 0; i < 2000; i++) verify(null, message, publicKey, signature); // warm-up
const cpuMicros = () => {
  const { user, system } = process.cpuUsage();
  return user + system;
};
let count = 0;
const started = performance.now();
const cpuStarted = cpuMicros();
while (performance.now() - started < seconds * 1000) {
  for (let i = 0; i < 100; i++) verify(null, message, publicKey, signature);
  count += 100;
}
const wallRate = count / ((performance.now() - started) / 1000);
const cpuRate = count / ((cpuMicros() - cpuStarted) / 1e6);
console.log(`verify ${Math.round(wallRate)} cpu ${Math.round(cpuRate)}`);
