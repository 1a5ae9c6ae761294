import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { verifyBlockProof } from "../../../src/proof/index.js";
import { runCli, type CliProcess } from "../../cli/cliProcess.js";

/*
 * A real `shardkit serve` on a data dir, killed with SIGKILL while a `shardkit_revert` or a
 * `sandbox_fast_forward` is in flight, then restarted on the same dir: the head it reopens at
 * is a block the chain had, every block up to it is the one clients saw (same hash, linked by
 * prev_hash), nothing of the undone blocks is visible, and the chain goes on producing blocks
 * whose block merkle tree still proves the old ones.
 */

const dirs: string[] = [];
const running: CliProcess[] = [];
afterAll(() => {
  for (const p of running) if (p.child.exitCode === null) p.child.kill("SIGKILL");
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** `url` is the regular listener (dev-chain controls), `archival` serves every block. */
async function serve(dir: string): Promise<{ process: CliProcess; url: string; archival: string }> {
  const p = runCli(["serve", "--data-dir", dir, "--block-time", "0", "--rpc-port", "0", "--archival-port", "0", "--api-port", "0", "--log-level", "warn"]);
  running.push(p);
  return new Promise((resolve, reject) => {
    const look = () => {
      const rpc = /regular RPC\s+(http:\/\/\S+)/.exec(p.output().stdout);
      const archival = /archival RPC\s+(http:\/\/\S+)/.exec(p.output().stdout);
      if (rpc && archival) {
        p.child.stdout!.off("data", look);
        resolve({ process: p, url: rpc[1]!, archival: archival[1]! });
      }
    };
    p.child.stdout!.on("data", look);
    void p.exited.then(() => reject(new Error(`serve exited: ${p.output().stderr}`)));
  });
}

/** Lets the event loop turn `turns` times (the request on its way, the server at work meanwhile). */
async function turns(n: number): Promise<void> {
  for (let i = 0; i < n; i++) await new Promise((resolve) => setImmediate(resolve));
}

async function call(url: string, method: string, params: unknown): Promise<any> {
  const response = await fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }) });
  const body = (await response.json()) as { result?: unknown; error?: { cause?: { name?: string } } };
  if (body.error !== undefined) return { error: body.error };
  return body.result;
}

async function hashes(url: string, from: number, to: number): Promise<Map<number, string>> {
  const out = new Map<number, string>();
  for (let h = from; h <= to; h++) out.set(h, (await call(url, "block", { block_id: h })).header.hash);
  return out;
}

async function kill(p: CliProcess): Promise<void> {
  p.child.kill("SIGKILL");
  await p.exited;
}

/** After a restart: every block up to the head is the one recorded, linked by prev_hash; nothing above the head answers. */
async function expectConsistent(url: string, seen: Map<number, string>): Promise<number> {
  const head = (await call(url, "block", { finality: "optimistic" })).header;
  expect(seen.get(head.height), `head ${head.height}`).toBe(head.hash);
  let prev: string | undefined;
  for (let h = 0; h <= head.height; h++) {
    const block = (await call(url, "block", { block_id: h })).header;
    expect(block.hash).toBe(seen.get(h));
    if (prev !== undefined) expect(block.prev_hash).toBe(prev);
    prev = block.hash;
  }
  for (const [h, hash] of seen) {
    if (h <= head.height) continue;
    expect((await call(url, "block", { block_id: h })).error.cause.name).toBe("UNKNOWN_BLOCK");
    expect((await call(url, "block", { block_id: hash })).error.cause.name).toBe("UNKNOWN_BLOCK");
  }
  return head.height;
}

/** The chain produces on, and its block merkle tree proves an old block against a new head. */
async function expectProducesAndProves({ url, archival }: { url: string; archival: string }, oldHeight: number): Promise<void> {
  await call(url, "sandbox_fast_forward", { delta_height: 3 });
  url = archival;
  const head = (await call(url, "block", { finality: "final" })).header;
  const old = (await call(url, "block", { block_id: oldHeight })).header;
  const proof = await call(url, "EXPERIMENTAL_light_client_block_proof", { block_hash: old.hash, light_client_head: head.hash });
  expect(verifyBlockProof({ blockHeaderLite: proof.block_header_lite, blockProof: proof.block_proof, blockMerkleRoot: head.block_merkle_root }).blockHash).toBe(old.hash);
}

/** Blocks the revert undoes. */
const UNDONE = 60;
/** Two server starts and a few hundred requests each: generous for a loaded CI machine. */
const PROCESS_TEST_TIMEOUT_MS = 90_000;

describe("SIGKILL during a dev-chain control leaves a consistent head", () => {
  it.each([0, 1, 3])("during shardkit_revert (kill %i event-loop turns after the request)", async (delay) => {
    const dir = mkdtempSync(join(tmpdir(), "shardkit-kill-revert-"));
    dirs.push(dir);
    let server = await serve(dir);
    await call(server.url, "sandbox_fast_forward", { delta_height: 20 });
    const { snapshot_id, block_height: snapshotHeight } = await call(server.url, "shardkit_snapshot", {});
    await call(server.url, "sandbox_fast_forward", { delta_height: UNDONE });
    const seen = await hashes(server.archival, 0, snapshotHeight + UNDONE);
    const revert = call(server.url, "shardkit_revert", { snapshot_id }).catch(() => undefined);
    await turns(delay);
    await kill(server.process);
    await revert;

    server = await serve(dir);
    const head = await expectConsistent(server.archival, seen);
    expect([snapshotHeight, snapshotHeight + UNDONE]).toContain(head);
    await expectProducesAndProves(server, 5);
    await kill(server.process);
  }, PROCESS_TEST_TIMEOUT_MS);

  it.each([1, 200])("during sandbox_fast_forward (kill once the head has moved %i blocks)", async (moved) => {
    const dir = mkdtempSync(join(tmpdir(), "shardkit-kill-ff-"));
    dirs.push(dir);
    let server = await serve(dir);
    await call(server.url, "sandbox_fast_forward", { delta_height: 20 });
    const before = await hashes(server.archival, 0, 20);
    const ff = call(server.url, "sandbox_fast_forward", { delta_height: 100_000 }).catch(() => undefined);
    // The fast-forward answers other requests between its batches: kill once it is under way.
    while ((await call(server.archival, "block", { finality: "optimistic" })).header.height < 20 + moved);
    await kill(server.process);
    await ff;

    server = await serve(dir);
    const head = (await call(server.url, "block", { finality: "optimistic" })).header.height;
    expect(head).toBeGreaterThanOrEqual(20);
    expect(head).toBeLessThan(100_020);
    // Every kept block links to its parent; the blocks before the fast-forward are unchanged.
    const seen = await hashes(server.archival, 0, head);
    for (const [h, hash] of before) expect(seen.get(h)).toBe(hash);
    await expectConsistent(server.archival, seen);
    await expectProducesAndProves(server, 7);
    await kill(server.process);
  }, PROCESS_TEST_TIMEOUT_MS);
});
