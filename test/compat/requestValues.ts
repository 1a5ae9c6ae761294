import fc from "fast-check";
import { base58Encode } from "@shardkit/primitives/base58";
import { itemField, nonNull, type Prop, type Shape, type Variant } from "./nearcoreRequestSchemas.js";

/**
 * Values for request fields, chosen by field name where nearcore's schema only says "string"
 * (its AccountId, CryptoHash, PublicKey, StoreKey... are plain strings in the published
 * schema): a valid value of the named type, so that a refusal can only have a schema reason.
 * The pools default to synthetic values; the HTTP test fills them from the running chain.
 */
export interface ValuePools {
  accountIds: string[];
  blockHashes: string[];
  blockHeights: number[];
  publicKeys: string[];
  txHashes: string[];
  receiptIds: string[];
  signedTxs: string[];
  chunkHashes: string[];
}

const hash = (seed: number) => base58Encode(Uint8Array.from({ length: 32 }, (_, i) => (seed * 31 + i * 7) & 0xff));

export const syntheticPools: ValuePools = {
  accountIds: ["alice.test.near", "bob.test.near", "kv.test.near", "nobody.test.near", "a1", "x_y-z.near"],
  blockHashes: [hash(1), hash(2)],
  blockHeights: [0, 1, 2, 1_000_000],
  publicKeys: ["ed25519:" + base58Encode(new Uint8Array(32).fill(7))],
  txHashes: [hash(3)],
  receiptIds: [hash(4)],
  // Schema-valid base64; the schema cannot tell a transaction from other bytes.
  signedTxs: [Buffer.from("not a transaction").toString("base64")],
  chunkHashes: [hash(5)],
};

/** Largest height we accept: see `block-id-above-2^53` in specs/nearcore-differences.yaml. */
export const MAX_SAFE_HEIGHT = Number.MAX_SAFE_INTEGER;

const bytesBase64 = (maxLength: number) => fc.uint8Array({ maxLength }).map((b) => Buffer.from(b).toString("base64"));

/** An arbitrary for a string field, by its name. */
function stringArbitrary(field: string, pools: ValuePools): fc.Arbitrary<string> {
  switch (field) {
    case "account_id":
    case "sender_account_id":
    case "sender_id":
    case "receiver_id":
      return fc.constantFrom(...pools.accountIds);
    case "block_id":
    case "epoch_id":
    case "block_hash":
    case "last_block_hash":
    case "light_client_head":
      return fc.constantFrom(...pools.blockHashes);
    case "chunk_id":
      return fc.constantFrom(...pools.chunkHashes);
    case "tx_hash":
    case "transaction_hash":
      return fc.constantFrom(...pools.txHashes);
    case "receipt_id":
      return fc.constantFrom(...pools.receiptIds);
    case "code_hash":
      return fc.constantFrom(...pools.blockHashes);
    case "public_key":
      return fc.constantFrom(...pools.publicKeys);
    case "signed_tx_base64":
      return fc.constantFrom(...pools.signedTxs);
    case "prefix_base64":
    case "after_key_base64":
    case "key_prefix_base64":
      return bytesBase64(8);
    case "args_base64":
      return bytesBase64(64);
    default:
      return fc.string({ maxLength: 40 });
  }
}

/** An arbitrary for any value nearcore's `shape` accepts at `field`. */
export function valueArbitrary(shape: Shape, field: string, pools: ValuePools): fc.Arbitrary<unknown> {
  switch (shape.kind) {
    case "enum":
      return fc.constantFrom(...shape.values);
    case "string":
      return stringArbitrary(field, pools);
    case "integer": {
      if (field === "block_id") return fc.oneof(fc.constantFrom(...pools.blockHeights), fc.integer({ min: 0, max: MAX_SAFE_HEIGHT }));
      const max = typeof shape.max === "bigint" ? MAX_SAFE_HEIGHT : shape.max;
      return fc.oneof(fc.integer({ min: Number(shape.min), max: Math.min(max, 100) }), fc.integer({ min: Number(shape.min), max }));
    }
    case "number":
      return fc.integer({ min: 0, max: 1_000_000 });
    case "boolean":
      return fc.boolean();
    case "null":
      return fc.constant(null);
    case "union":
      return fc.oneof(...shape.options.map((o) => valueArbitrary(o, field, pools)));
    case "array":
      return fc.array(valueArbitrary(shape.items, itemField(field), pools), { maxLength: 3 });
    case "object":
      return variantArbitrary(shape.props, pools);
    default:
      throw new Error(`no value arbitrary for a nested ${shape.kind} at ${field}`);
  }
}

/** A request of one variant: every required field, any subset of the optional ones. */
export function variantArbitrary(variant: Variant, pools: ValuePools): fc.Arbitrary<Record<string, unknown>> {
  const required: Record<string, fc.Arbitrary<unknown>> = {};
  const optional: Record<string, fc.Arbitrary<unknown>> = {};
  for (const [name, prop] of Object.entries(variant)) (prop.optional ? optional : required)[name] = valueArbitrary(prop.shape, name, pools);
  return fc
    .tuple(fc.record(required), fc.record(optional, { requiredKeys: [] }))
    .map(([a, b]) => ({ ...a, ...b }))
    .filter(semanticallyValid);
}

/**
 * Rules nearcore enforces beyond its schema, which we enforce too: a proof cannot be combined
 * with pagination, and a cursor must lie inside the prefix. Requests breaking them are not
 * "valid requests" in nearcore's sense either.
 */
export function semanticallyValid(params: Record<string, unknown>): boolean {
  const paginated = (params.limit ?? null) !== null || (params.after_key_base64 ?? null) !== null;
  if (params.include_proof === true && paginated) return false;
  if (typeof params.after_key_base64 === "string") {
    const prefix = Buffer.from(String(params.prefix_base64 ?? ""), "base64");
    const after = Buffer.from(params.after_key_base64, "base64");
    if (!after.subarray(0, prefix.length).equals(prefix)) return false;
  }
  return true;
}

/** One canonical value of a field, for the boundary probes. */
export function sampleValue(prop: Prop, field: string): unknown {
  const shape = nonNull(prop.shape)[0] ?? prop.shape;
  switch (shape.kind) {
    case "enum":
      return shape.values[0];
    case "string":
      if (field === "prefix_base64" || field === "after_key_base64" || field === "args_base64" || field === "key_prefix_base64") return "";
      return fc.sample(stringArbitrary(field, syntheticPools), { numRuns: 1, seed: 1 })[0];
    case "integer":
      return field === "limit" ? 10 : Number(shape.min);
    case "number":
      return 1;
    case "boolean":
      return false;
    case "null":
      return null;
    case "array":
      return [];
    default:
      throw new Error(`no sample for ${shape.kind} at ${field}`);
  }
}
