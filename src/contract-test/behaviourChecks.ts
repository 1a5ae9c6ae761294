import { base58Decode } from "@shardkit/primitives/base58";
import type { ViewStateResult } from "../../generated/rpc/types.js";
import { validateResult } from "../../generated/rpc/validators.js";
import { verifyStateProof } from "../proof/index.js";
import type { CheckContext } from "./CheckContext.js";
import type { TargetFacts } from "./discoverTarget.js";
import { rpcReplyProblems } from "./rpcConformance.js";
import type { SuiteRunner } from "./SuiteRunner.js";

interface StateItem {
  key: string;
  value: string;
}

/** A `query` view_state result (the spec's), or undefined for anything else (an error's absent result). */
function viewStateOf(result: unknown): ViewStateResult | undefined {
  return validateResult.query(result) && "values" in result ? result : undefined;
}

/** A view_state query that must succeed and conform to the spec. */
async function conformingViewState(t: CheckContext, url: string, params: Record<string, unknown>): Promise<ViewStateResult> {
  const result = viewStateOf(await conformingQuery(t, url, params));
  if (result === undefined) t.fail("view_state answered something other than a view_state result");
  return result;
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
    const heightAt = async (finality: string): Promise<number> => (await t.rpcResult(rpcUrl, "block", { finality })).header.height;
    for (let round = 0; round < FINALITY_ROUNDS; round++) {
      const final = await heightAt("final");
      const nearFinal = await heightAt("near-final");
      const optimistic = await heightAt("optimistic");
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
    const accounts = [contract.accountId, ...(contract.shardkitOnly ? SHARDKIT_PAGING_ACCOUNTS : [])];
    await suite.check("behaviour", "view_state paging", async (t) => viewStatePaging(t, rpcUrl, accounts, await finalBlock(t, rpcUrl)), flags);
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

/** Other small-state accounts of shardkit's dev chain whose paging is checked too (with its FT contract). */
const SHARDKIT_PAGING_ACCOUNTS = ["nft.test.near", "pool.test.near"];

/**
 * view_state paging against the exact rules, on every account given and several prefixes each
 * (the whole state, the first key's first byte, one whole key, a prefix nothing has), with
 * limits from 1 to past the end. The reference is the unpaginated read with a proof that
 * verifies against the block's state root (so entries the node drops from every answer are
 * caught too); without a verifiable proof, the plain unpaginated read. Rules, for every limit:
 * each page holds min(limit, remaining) entries (small accounts never reach the page byte
 * budget) in raw-byte key order; `last_key` is present exactly when entries remain and is then
 * the page's last key; the next page starts strictly after it; every key appears exactly once;
 * the pages together equal the reference, values included.
 */
async function viewStatePaging(t: CheckContext, rpcUrl: string, accountIds: readonly string[], block: { height: number; hash: string }): Promise<void> {
  let checked = 0;
  for (const [i, accountId] of accountIds.entries()) {
    const reference = await pagingReference(t, rpcUrl, accountId, block, i === 0);
    if (reference === undefined) continue;
    checked++;
    for (const prefix of pagingPrefixes(reference)) {
      const expected = reference.filter((item) => {
        const key = Buffer.from(item.key, "base64");
        return key.length >= prefix.length && key.subarray(0, prefix.length).equals(prefix);
      });
      const limits = [...new Set([1, 2, Math.max(1, Math.floor(expected.length / 3)), Math.max(1, expected.length - 1), Math.max(1, expected.length), expected.length + 1])];
      for (const limit of limits) await pagesFollowTheRules(t, rpcUrl, { accountId, blockHash: block.hash, prefix: prefix.toString("base64"), limit }, expected);
    }
  }
  if (checked === 0) t.skip(`no account of ${accountIds.join(", ")} has a state of 2 or more entries within the node's view limit`);

  // The largest limit the schema allows is accepted (the node caps the page, it does not refuse it).
  const [accountId] = accountIds;
  const all = accountId === undefined ? undefined : await pagingReference(t, rpcUrl, accountId, block, true);
  if (all === undefined) return;
  const base = { request_type: "view_state", block_id: block.hash, account_id: accountId, prefix_base64: "" };
  const capped = await conformingQuery(t, rpcUrl, { ...base, limit: 2 ** 32 - 1 });
  if (capped.values.length !== all.length || capped.last_key !== undefined) {
    t.fail(`limit ${2 ** 32 - 1} returned ${capped.values.length} of ${all.length} entries${capped.last_key === undefined ? "" : " and last_key"}`);
  }
}

/** Prefixes to page under: everything, the first key's first byte, the last key whole, and one nothing has. */
function pagingPrefixes(reference: readonly StateItem[]): Buffer[] {
  const [firstItem] = reference;
  const lastItem = reference.at(-1);
  if (firstItem === undefined || lastItem === undefined) return [Buffer.alloc(0)];
  const first = Buffer.from(firstItem.key, "base64");
  const last = Buffer.from(lastItem.key, "base64");
  const prefixes = [Buffer.alloc(0), first.subarray(0, 1), last];
  // A byte no key starts with (keys of a small state leave most of the 256 unused).
  const used = new Set(reference.map((item) => Buffer.from(item.key, "base64")[0]));
  for (let byte = 0xfe; byte >= 0; byte--) {
    if (!used.has(byte)) {
      prefixes.push(Buffer.from([byte]));
      break;
    }
  }
  const seen = new Set<string>();
  return prefixes.filter((p) => (seen.has(p.toString("hex")) ? false : (seen.add(p.toString("hex")), true)));
}

/**
 * An account's whole state as the reference for its pages: the unpaginated read with a proof,
 * when the proof verifies against the block's post-state root (and then the plain read must
 * equal it), else the plain read. Undefined (passed over) when the state is too large to read
 * unpaginated or has fewer than 2 entries, unless `required`, which skips the check instead.
 */
async function pagingReference(
  t: CheckContext,
  rpcUrl: string,
  accountId: string,
  block: { height: number; hash: string },
  required: boolean,
): Promise<StateItem[] | undefined> {
  const base = { request_type: "view_state", block_id: block.hash, account_id: accountId, prefix_base64: "" };
  const plain = await t.rpc(rpcUrl, "query", base);
  const problems = rpcReplyProblems("query", plain);
  if (problems.length > 0) t.fail(problems.join("; "));
  const error = plain.envelope.error;
  if (error?.cause?.name === "TOO_LARGE_CONTRACT_STATE" || error?.cause?.name === "UNKNOWN_ACCOUNT") {
    if (required) t.skip(`${accountId}'s state cannot be read unpaginated (${error.cause.name}): pass a contract with a smaller state (--contract)`);
    return undefined;
  }
  if (error !== undefined) t.fail(`view_state of ${accountId} failed: ${JSON.stringify(error).slice(0, 300)}`);
  const read = viewStateOf(plain.envelope.result);
  if (read === undefined) t.fail(`view_state of ${accountId} answered something other than a view_state result`);
  const { values, last_key: lastKey } = read;
  if (lastKey !== undefined) t.fail(`an unpaginated read of ${accountId} has last_key`);
  if (values.length < 2) {
    if (required) t.skip(`${accountId} has fewer than 2 entries to page through`);
    return undefined;
  }
  for (const [i, item] of values.entries()) {
    const previous = i > 0 ? values[i - 1] : undefined;
    if (previous !== undefined && compareKeys(previous.key, item.key) >= 0) t.fail(`${accountId}: unpaginated keys out of raw-byte order at ${i}: ${previous.key} then ${item.key}`);
  }
  const proven = await provenState(t, rpcUrl, accountId, block);
  if (proven === undefined) return values;
  const same = proven.length === values.length && proven.every((item, i) => item.key === values[i]?.key && item.value === values[i]?.value);
  if (!same) {
    const missing = proven.filter((item) => !values.some((v) => v.key === item.key)).map((item) => item.key);
    t.fail(
      `${accountId}: the unpaginated read holds ${values.length} entries, the proven state ${proven.length}` +
        (missing.length > 0 ? ` (missing ${missing.slice(0, 3).join(", ")}${missing.length > 3 ? ", ..." : ""})` : ""),
    );
  }
  return proven;
}

/** The state of an account as a proof that verifies against some shard's post-state root of `block` proves it; undefined when none verifies. */
async function provenState(t: CheckContext, rpcUrl: string, accountId: string, block: { height: number; hash: string }): Promise<StateItem[] | undefined> {
  const reply = await t.rpc(rpcUrl, "query", { request_type: "view_state", block_id: block.hash, account_id: accountId, prefix_base64: "", include_proof: true });
  const result = viewStateOf(reply.envelope.result);
  if (result?.proof === undefined || result.proof.length === 0) return undefined;
  const next = await t.typedResult(rpcUrl, "block", { block_id: block.height + 1 });
  const values = result.values.map((v) => ({ key: bytesOf(v.key), value: bytesOf(v.value) }));
  const proof = result.proof.map(bytesOf);
  for (const chunk of next.chunks) {
    try {
      verifyStateProof({ stateRoot: base58Decode(chunk.prev_state_root), accountId, prefix: new Uint8Array(), values, proof });
      return result.values;
    } catch {
      // another shard's root
    }
  }
  return undefined;
}

/** Reads every page of one (account, prefix, limit) and checks each paging rule against `expected`. */
async function pagesFollowTheRules(
  t: CheckContext,
  rpcUrl: string,
  read: { accountId: string; blockHash: string; prefix: string; limit: number },
  expected: readonly StateItem[],
): Promise<void> {
  const where = `${read.accountId}, prefix_base64 ${JSON.stringify(read.prefix)}, limit ${read.limit}`;
  const base = { request_type: "view_state", block_id: read.blockHash, account_id: read.accountId, prefix_base64: read.prefix, limit: read.limit };
  const seen: StateItem[] = [];
  const keys = new Set<string>();
  let after: string | undefined;
  for (let pages = 0; ; pages++) {
    if (pages > expected.length + 1) t.fail(`${where}: paging does not end`);
    const page = await conformingViewState(t, rpcUrl, { ...base, ...(after !== undefined && { after_key_base64: after }) });
    const values = page.values;
    const remaining = expected.length - seen.length;
    if (values.length !== Math.min(read.limit, Math.max(0, remaining))) {
      t.fail(`${where}: page ${pages + 1} holds ${values.length} entries where ${Math.min(read.limit, Math.max(0, remaining))} remain to be returned`);
    }
    for (const [i, item] of values.entries()) {
      const previous = i > 0 ? values[i - 1]?.key : after;
      if (previous !== undefined && compareKeys(previous, item.key) >= 0) {
        t.fail(
          i === 0
            ? `${where}: the page after ${after} starts at ${item.key}, not strictly after the cursor`
            : `${where}: page ${pages + 1} is out of raw-byte order at ${i}: ${previous} then ${item.key}`,
        );
      }
      if (keys.has(item.key)) t.fail(`${where}: key ${item.key} appears on two pages`);
      keys.add(item.key);
    }
    seen.push(...values);
    const more = seen.length < expected.length;
    if (page.last_key === undefined) {
      if (more) t.fail(`${where}: page ${pages + 1} has no last_key although ${expected.length - seen.length} entries remain`);
      break;
    }
    if (!more) t.fail(`${where}: page ${pages + 1} has last_key although no entry remains`);
    const lastValue = values[values.length - 1];
    if (lastValue === undefined) t.fail(`${where}: an empty page has last_key`);
    if (page.last_key !== lastValue.key) t.fail(`${where}: last_key ${page.last_key} is not the page's last key ${lastValue.key}`);
    after = page.last_key;
  }
  const differs = seen.findIndex((v, i) => v.key !== expected[i]?.key || v.value !== expected[i]?.value);
  if (differs >= 0 || seen.length !== expected.length) {
    t.fail(`${where}: the pages hold ${seen.length} entries, the state under the prefix ${expected.length}; they differ from entry ${differs >= 0 ? differs : Math.min(seen.length, expected.length)}`);
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
    const result = viewStateOf(reply.envelope.result);
    if (result === undefined) t.fail("view_state answered something other than a view_state result");
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
  const read = await conformingViewState(t, rpcUrl, {
    request_type: "view_state",
    block_id: block.hash,
    account_id: accountId,
    prefix_base64: prefix,
    include_proof: true,
  });
  const proof = (read.proof ?? []).map(bytesOf);
  if (proof.length === 0) t.fail("include_proof: true returned no proof");
  // The post-state root of a block is the next block's chunk prev_state_root.
  const next = await t.typedResult(rpcUrl, "block", { block_id: block.height + 1 });
  const values = read.values.map((v) => ({ key: bytesOf(v.key), value: bytesOf(v.value) }));
  const failures: string[] = [];
  for (const chunk of next.chunks) {
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
