import { base58Decode } from "../chain/primitives/base58.js";
import { verifyStateProof } from "../proof/index.js";
import type { CheckContext } from "./CheckContext.js";
import type { TargetFacts } from "./discoverTarget.js";
import { rpcReplyProblems } from "./rpcConformance.js";
import type { SuiteRunner } from "./SuiteRunner.js";

interface StateItem {
  key: string;
  value: string;
}

/** Rounds of the finality ordering check. */
const FINALITY_ROUNDS = 5;

const bytesOf = (base64: string) => new Uint8Array(Buffer.from(base64, "base64"));
const compareKeys = (a: string, b: string) => Buffer.compare(Buffer.from(a, "base64"), Buffer.from(b, "base64"));

/** The final block now: checks that pin a block read it at their start, so that it is still retained. */
async function finalBlock(t: CheckContext, url: string): Promise<{ height: number; hash: string }> {
  const block = await t.rpcResult(url, "block", { finality: "final" });
  return { height: block.header.height, hash: block.header.hash };
}

/** A query that must succeed and conform to the spec. */
async function conformingQuery(t: CheckContext, url: string, params: Record<string, unknown>): Promise<any> {
  const reply = await t.rpc(url, "query", params);
  const problems = rpcReplyProblems("query", reply);
  if (problems.length > 0) t.fail(problems.join("; "));
  if (reply.envelope.error !== undefined) t.fail(`query failed: ${JSON.stringify(reply.envelope.error).slice(0, 300)}`);
  return reply.envelope.result;
}

export async function behaviourChecks(suite: SuiteRunner, rpcUrl: string, archivalUrl: string | undefined, facts: TargetFacts): Promise<void> {
  await suite.check("behaviour", "finality ordering: final <= near-final <= optimistic", async (t) => {
    // Asked in this order, a correct node can only move forward between the calls. Several rounds:
    // a new block between two calls can hide a wrong answer once, rarely every time.
    for (let round = 0; round < FINALITY_ROUNDS; round++) {
      const heights: number[] = [];
      for (const finality of ["final", "near-final", "optimistic"]) {
        const block = await t.rpcResult(rpcUrl, "block", { finality });
        heights.push(block.header.height);
      }
      const [final, nearFinal, optimistic] = heights as [number, number, number];
      if (!(final <= nearFinal && nearFinal <= optimistic)) {
        t.fail(`heights final ${final}, near-final ${nearFinal}, optimistic ${optimistic} are out of order`);
      }
    }
  });

  await viewAccessKeyChecks(suite, rpcUrl, facts);

  const contract = facts.contract;
  const flags = { shardkitOnly: contract?.shardkitOnly ?? false };
  if (contract === undefined) {
    await suite.skip("behaviour", "view_state paging", "needs a contract account with state (--contract)");
    await suite.skip("behaviour", "view_state proof verifies against the state root", "needs a contract account with state (--contract)");
  } else {
    await suite.check("behaviour", "view_state paging", async (t) => viewStatePaging(t, rpcUrl, contract.accountId, (await finalBlock(t, rpcUrl)).hash), flags);
    await suite.check("behaviour", "view_state proof verifies against the state root", (t) => viewStateProof(t, rpcUrl, contract.accountId), flags);
  }

  if (archivalUrl === undefined) {
    await suite.skip("behaviour", "retention: regular vs archival", "needs --archival");
  } else {
    await suite.check("behaviour", "retention: regular vs archival", (t) => retention(t, rpcUrl, archivalUrl, facts));
  }
}

async function viewAccessKeyChecks(suite: SuiteRunner, rpcUrl: string, facts: TargetFacts): Promise<void> {
  const name = "view_access_key agrees with view_access_key_list at one block";
  const { publicKey } = facts;
  if (publicKey === undefined) return suite.skip("behaviour", name, `${facts.accountId} has no access key`);
  await suite.check("behaviour", name, async (t) => {
    const { hash } = await finalBlock(t, rpcUrl);
    const at = { block_id: hash, account_id: facts.accountId };
    const key = await conformingQuery(t, rpcUrl, { request_type: "view_access_key", public_key: publicKey, ...at });
    if (key.block_hash !== hash) t.fail(`block_hash ${key.block_hash}, asked for ${hash}`);
    const list = await conformingQuery(t, rpcUrl, { request_type: "view_access_key_list", ...at });
    const listed = list.keys.find((k: { public_key: string }) => k.public_key === publicKey);
    if (listed === undefined) t.fail(`view_access_key_list does not list ${publicKey}`);
    if (listed.access_key.nonce !== key.nonce) t.fail(`nonce ${key.nonce} in view_access_key, ${listed.access_key.nonce} in the list`);
  });
}

/** Pages concatenate to the unpaginated set, in raw-byte key order, with an exclusive cursor and last_key only when cut short. */
async function viewStatePaging(t: CheckContext, rpcUrl: string, accountId: string, blockHash: string): Promise<void> {
  const { prefix, values: all } = await readablePrefix(t, rpcUrl, accountId, blockHash);
  const base = { request_type: "view_state", block_id: blockHash, account_id: accountId, prefix_base64: prefix };
  for (let i = 1; i < all.length; i++) {
    if (compareKeys(all[i - 1]!.key, all[i]!.key) >= 0) t.fail(`keys out of raw-byte order at ${i}: ${all[i - 1]!.key} then ${all[i]!.key}`);
  }

  // Pages of about a third, so that there are cut-short pages and a last one.
  let limit = Math.max(1, Math.floor(all.length / 3));
  if (all.length % limit === 0 && limit > 1) limit -= 1;
  const seen: StateItem[] = [];
  let after: string | undefined;
  for (let pages = 0; ; pages++) {
    if (pages > all.length + 1) t.fail("paging does not end");
    const page = await conformingQuery(t, rpcUrl, { ...base, limit, ...(after !== undefined && { after_key_base64: after }) });
    const values = page.values as StateItem[];
    if (values.length > limit) t.fail(`a page of limit ${limit} has ${values.length} entries`);
    if (after !== undefined && values.some((v) => compareKeys(v.key, after!) <= 0)) {
      t.fail(`the page after ${after} holds a key not after the cursor (the cursor must be exclusive)`);
    }
    seen.push(...values);
    if (page.last_key === undefined) break;
    const lastValue = values[values.length - 1];
    if (lastValue === undefined) t.fail("an empty page has last_key");
    if (page.last_key !== lastValue.key) t.fail(`last_key ${page.last_key} is not the page's last key ${lastValue.key}`);
    if (seen.length >= all.length && values.length < limit) t.fail("last_key on a page that was not cut short");
    after = page.last_key;
  }
  if (seen.length < all.length && seen.every((v, i) => v.key === all[i]!.key && v.value === all[i]!.value)) {
    t.fail(`paging stopped after ${seen.length} of ${all.length} entries: this page (limit ${limit}) has no last_key although entries remain`);
  }
  if (seen.length !== all.length || seen.some((v, i) => v.key !== all[i]!.key || v.value !== all[i]!.value)) {
    const firstDiff = seen.findIndex((v, i) => v.key !== all[i]?.key || v.value !== all[i]?.value);
    t.fail(
      `pages of ${limit} hold ${seen.length} entries, the unpaginated read ${all.length}; they differ from entry ${firstDiff === -1 ? Math.min(seen.length, all.length) : firstDiff}`,
    );
  }

  const whole = await conformingQuery(t, rpcUrl, { ...base, limit: all.length + 1 });
  if (whole.last_key !== undefined) t.fail(`a page with limit ${all.length + 1} over ${all.length} entries has last_key`);
  if (whole.values.length !== all.length) t.fail(`a page with limit ${all.length + 1} holds ${whole.values.length} of ${all.length} entries`);

  // The largest limit the schema allows is accepted (the node caps the page, it does not refuse it).
  const capped = await conformingQuery(t, rpcUrl, { ...base, limit: 2 ** 32 - 1 });
  if (capped.values.length !== all.length || capped.last_key !== undefined) {
    t.fail(`limit ${2 ** 32 - 1} returned ${capped.values.length} of ${all.length} entries${capped.last_key === undefined ? "" : " and last_key"}`);
  }

  const afterFirst = await conformingQuery(t, rpcUrl, { ...base, limit: 1, after_key_base64: all[0]!.key });
  if (afterFirst.values[0]?.key !== all[1]!.key) {
    t.fail(`after_key_base64 = the first key must start at the second key ${all[1]!.key}, got ${afterFirst.values[0]?.key}`);
  }
}

/** The contract's whole state read unpaginated (the reference the pages must add up to); it needs 2+ entries. */
async function readablePrefix(t: CheckContext, rpcUrl: string, accountId: string, blockHash: string): Promise<{ prefix: string; values: StateItem[] }> {
  const base = { request_type: "view_state", block_id: blockHash, account_id: accountId };
  const readAll = async (prefix: string): Promise<StateItem[] | "too large"> => {
    const reply = await t.rpc(rpcUrl, "query", { ...base, prefix_base64: prefix });
    const problems = rpcReplyProblems("query", reply);
    if (problems.length > 0) t.fail(problems.join("; "));
    const error = reply.envelope.error;
    if (error?.cause?.name === "TOO_LARGE_CONTRACT_STATE") return "too large";
    if (error !== undefined) t.fail(`view_state failed: ${JSON.stringify(error).slice(0, 300)}`);
    const result = reply.envelope.result as { values: StateItem[]; last_key?: string };
    if (result.last_key !== undefined) t.fail("an unpaginated read has last_key");
    return result.values;
  };
  const whole = await readAll("");
  if (whole !== "too large") {
    if (whole.length < 2) t.skip(`${accountId} has fewer than 2 entries to page through`);
    return { prefix: "", values: whole };
  }
  // nearcore checks the size of the whole account's state, whatever the prefix.
  t.skip(`${accountId}'s state is above the node's view limit: pass a contract with a smaller state (--contract)`);
}

/** include_proof: the values and proof verify against the post-state root of the read block on some shard. */
async function viewStateProof(t: CheckContext, rpcUrl: string, accountId: string): Promise<void> {
  const block = await finalBlock(t, rpcUrl);
  const { prefix } = await readablePrefix(t, rpcUrl, accountId, block.hash);
  const read = await conformingQuery(t, rpcUrl, {
    request_type: "view_state",
    block_id: block.hash,
    account_id: accountId,
    prefix_base64: prefix,
    include_proof: true,
  });
  const proof = (read.proof ?? []).map(bytesOf);
  if (proof.length === 0) t.fail("include_proof: true returned no proof");
  // The post-state root of a block is the next block's chunk prev_state_root.
  const next = await t.rpcResult(rpcUrl, "block", { block_id: block.height + 1 });
  const values = (read.values as StateItem[]).map((v) => ({ key: bytesOf(v.key), value: bytesOf(v.value) }));
  const failures: string[] = [];
  for (const chunk of next.chunks as { shard_id: number; prev_state_root: string }[]) {
    try {
      verifyStateProof({ stateRoot: base58Decode(chunk.prev_state_root), accountId, prefix: bytesOf(prefix), values, proof });
      return;
    } catch (error) {
      failures.push(`shard ${chunk.shard_id}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  t.fail(`the proof verifies against no shard's state root: ${failures.join("; ")}`);
}

/** A block the regular node no longer serves is an error there and a result on the archival node. */
async function retention(t: CheckContext, rpcUrl: string, archivalUrl: string, facts: TargetFacts): Promise<void> {
  const genesis = await t.rpcResult(rpcUrl, "genesis_config", {});
  const genesisHeight: number = genesis.genesis_height;
  if (facts.earliestHeight === undefined || facts.earliestHeight <= genesisHeight) {
    t.skip(`the regular node still serves the genesis block (earliest_block_height ${facts.earliestHeight ?? "not reported"})`);
  }
  for (const [method, params] of [
    ["block", { block_id: genesisHeight }],
    ["query", { request_type: "view_account", block_id: genesisHeight, account_id: facts.accountId }],
  ] as const) {
    const regular = await t.rpc(rpcUrl, method, params);
    const problems = rpcReplyProblems(method, regular);
    if (problems.length > 0) t.fail(`regular: ${problems.join("; ")}`);
    const cause = regular.envelope.error?.cause?.name;
    if (cause !== "GARBAGE_COLLECTED_BLOCK" && cause !== "UNKNOWN_BLOCK") {
      t.fail(`regular ${method} at genesis height ${genesisHeight} (older than earliest ${facts.earliestHeight}) must fail with GARBAGE_COLLECTED_BLOCK or UNKNOWN_BLOCK, got ${cause ?? "a result"}`);
    }
    const archival = await t.rpc(archivalUrl, method, params);
    const archivalProblems = rpcReplyProblems(method, archival);
    if (archivalProblems.length > 0) t.fail(`archival: ${archivalProblems.join("; ")}`);
    const archivalCause = archival.envelope.error?.cause?.name;
    if (archivalCause === "GARBAGE_COLLECTED_BLOCK" || archivalCause === "UNKNOWN_BLOCK") {
      t.fail(`archival ${method} at genesis height ${genesisHeight} answered ${archivalCause}`);
    }
  }
}
