import { readFileSync } from "node:fs";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { rpcMethodNames, type RpcMethodName } from "../../generated/rpc/methods.js";
import { validateParams } from "../../generated/rpc/validators.js";
import { devKeyPair } from "../../src/chain/genesis/devKey.js";
import { ParseError } from "../../src/server/errors.js";
import { normaliseParams } from "../../src/server/jsonrpc/legacyParams.js";
import type { Service } from "../../src/server/startService.js";
import { ALICE, BOB, signedTx } from "../chain/runtime/helpers.js";
import { rpc, startTestService } from "../server/harness.js";
import { acceptsNull, nearcoreRequest, nonNull, requestTypeOf, type MethodRequest, type Variant } from "./nearcoreRequestSchemas.js";
import { MAX_SAFE_HEIGHT, sampleValue, syntheticPools, variantArbitrary, type ValuePools } from "./requestValues.js";

// Issue 12: every request nearcore's published schema accepts, we accept, field by field, with
// the same nullability, enum values and integer ranges; any exception is listed, with its
// reason, in specs/nearcore-differences.yaml.

interface Difference {
  id: string;
  methods: string[];
  request_types?: string[];
  field?: string;
  probe: string;
}
const differences = parse(readFileSync(new URL("../../specs/nearcore-differences.yaml", import.meta.url), "utf8")) as Difference[];

/** A comparison where our schema answered differently from nearcore's. */
interface Mismatch {
  method: string;
  requestType?: string;
  field?: string;
  probe: string;
  params: unknown;
}

/** The server's request pipeline up to the handler: legacy forms normalised, then the generated validator. */
function weAccept(method: RpcMethodName, params: unknown): boolean {
  try {
    return validateParams[method](normaliseParams(method, params));
  } catch (error) {
    if (error instanceof ParseError) return false;
    throw error;
  }
}

const servedByNearcore = rpcMethodNames.flatMap((method) => {
  const request = nearcoreRequest(method);
  return request === undefined ? [] : [{ method, request }];
});

function explained(m: Mismatch): Difference | undefined {
  return differences.find(
    (d) =>
      d.probe === m.probe &&
      d.methods.includes(m.method) &&
      (d.request_types === undefined || (m.requestType !== undefined && d.request_types.includes(m.requestType))) &&
      (d.field === undefined || d.field === m.field),
  );
}

/** Whether a variant is one of the request types a listed difference says we do not serve. */
function unserved(method: string, variant: Variant): boolean {
  const requestType = requestTypeOf(variant);
  return explained({ method, probe: "request-type", params: undefined, ...(requestType !== undefined && { requestType }) }) !== undefined;
}

/** Every comparison for one method: the variant itself, then each field's values and bounds. */
function compare(method: RpcMethodName, request: MethodRequest): Mismatch[] {
  const mismatches: Mismatch[] = [];
  const expect = (accepted: boolean, params: unknown, probe: string, requestType?: string, field?: string) => {
    if (weAccept(method, params) !== accepted) mismatches.push({ method, probe, params, ...(requestType && { requestType }), ...(field && { field }) });
  };
  if (request.nullParams) {
    expect(true, null, "null-params");
    expect(true, { unknown_field_x: 1 }, "unknown-field");
  }
  for (const variant of request.variants) {
    const requestType = requestTypeOf(variant);
    const base: Record<string, unknown> = {};
    for (const [name, prop] of Object.entries(variant)) if (!prop.optional) base[name] = sampleValue(prop, name);
    if (!weAccept(method, base)) {
      mismatches.push({ method, probe: requestType === undefined ? "variant" : "request-type", params: base, ...(requestType && { requestType }) });
      continue;
    }
    // nearcore ignores fields it does not know (serde default).
    expect(true, { ...base, unknown_field_x: 1 }, "unknown-field", requestType);
    for (const [field, prop] of Object.entries(variant)) {
      if (field === "request_type") continue;
      const at = (value: unknown) => ({ ...base, [field]: value });
      if (prop.optional) expect(true, at(sampleValue(prop, field)), "optional-field", requestType, field);
      expect(acceptsNull(prop.shape), at(null), acceptsNull(prop.shape) ? "null-accepted" : "null-refused", requestType, field);
      for (const shape of nonNull(prop.shape)) {
        if (shape.kind === "enum") {
          for (const value of shape.values) expect(true, at(value), "enum-value", requestType, field);
          expect(false, at("not_a_nearcore_value"), "enum-closed", requestType, field);
        } else if (shape.kind === "integer") {
          expect(true, at(Number(shape.min)), "range-min", requestType, field);
          expect(true, at(Number(shape.max)), "range-max", requestType, field);
          expect(false, at(Number(shape.min) - 1), "range-below", requestType, field);
          // max + 1 is a distinct JSON number only below 2^53.
          if (Number(shape.max) < MAX_SAFE_HEIGHT) expect(false, at(Number(shape.max) + 1), "range-above", requestType, field);
          expect(false, at(Number(shape.min) + 0.5), "integer-only", requestType, field);
        } else if (shape.kind === "boolean") {
          expect(true, at(true), "boolean", requestType, field);
          expect(true, at(false), "boolean", requestType, field);
        }
      }
    }
  }
  return mismatches;
}

describe("request schemas against nearcore's published ones (@near-js/jsonrpc-types)", () => {
  it("covers every method we serve that nearcore's spec has", () => {
    // Not in nearcore's published spec: rpc.discover, the sandbox-build methods (sandbox_*) and shardkit's own (shardkit_*).
    // Newer than @near-js/jsonrpc-types 1.4.0 (issue 28): checked against nearcore's openrpc.json
    // by test/compat/nearcoreOpenRpc.test.ts instead.
    const newerThanPackage = new Set([
      "EXPERIMENTAL_call_function",
      "EXPERIMENTAL_client_config",
      "EXPERIMENTAL_receipt_to_tx",
      "EXPERIMENTAL_view_access_key",
      "EXPERIMENTAL_view_access_key_list",
      "EXPERIMENTAL_view_account",
      "EXPERIMENTAL_view_code",
      "EXPERIMENTAL_view_state",
      "light_client_block_proof",
      // nearcore's RpcViewGasKeyNoncesRequest (gas keys, 2.13); in neither document at hand.
      "EXPERIMENTAL_view_gas_key_nonces",
    ]);
    const nearcoreSpecd = rpcMethodNames.filter((m) => m !== "rpc.discover" && !/^(sandbox|shardkit)_/.test(m) && !newerThanPackage.has(m));
    expect(servedByNearcore.map((m) => m.method).sort()).toEqual(nearcoreSpecd.sort());
    const query = servedByNearcore.find((m) => m.method === "query")!.request;
    expect(new Set(query.variants.map(requestTypeOf))).toEqual(
      new Set(["view_account", "view_code", "view_state", "view_access_key", "view_access_key_list", "call_function", "view_global_contract_code", "view_global_contract_code_by_account_id"]),
    );
  });

  it("differs only where specs/nearcore-differences.yaml says so, and every listed difference is still real", () => {
    const mismatches = servedByNearcore.flatMap(({ method, request }) => compare(method, request));
    const unexplained = mismatches.filter((m) => explained(m) === undefined);
    expect(unexplained).toEqual([]);
    // nearcore-method / nearcore-param / nearcore-result are nearcoreOpenRpc.test.ts's probes.
    const stale = differences.filter((d) => d.probe !== "none" && !d.probe.startsWith("nearcore-") && !mismatches.some((m) => explained(m) === d));
    expect(stale.map((d) => d.id)).toEqual([]);
  });

  it.each(servedByNearcore.map(({ method, request }) => [method, request] as const))(
    "accepts every valid %s request generated from nearcore's schema (property)",
    (method, request) => {
      const served = request.variants.filter((v) => !unserved(method, v));
      if (served.length === 0) return expect(request.nullParams).toBe(true);
      fc.assert(
        fc.property(fc.oneof(...served.map((v) => variantArbitrary(v, syntheticPools))), (params) => {
          if (!weAccept(method, params)) throw new Error(`refused: ${JSON.stringify(params)}: ${JSON.stringify(validateParams[method].errors)}`);
        }),
        { numRuns: 300, seed: 12 },
      );
    },
  );
});

describe("generated nearcore requests over HTTP", () => {
  let service: Service;
  let pools: ValuePools;

  beforeAll(async () => {
    service = await startTestService({ txTimeoutMs: 200 });
    const txs = [0, 1, 2].map(() => Buffer.from(signedTx(service.chain, ALICE, BOB, [{ type: "Transfer", deposit: 1n }])).toString("base64"));
    const submitted = service.chain.submitTransaction(Buffer.from(txs[0]!, "base64"));
    for (let i = 0; i < 4; i++) service.chain.produceBlock();
    const status = service.chain.transactionStatus(submitted.hash)!;
    const heights = Array.from({ length: service.chain.head().height + 1 }, (_, h) => h).filter((h) => service.chain.blockByHeight(h) !== undefined);
    pools = {
      accountIds: [ALICE, BOB, "kv.test.near", "nobody.test.near"],
      blockHeights: [...heights, 999_999],
      blockHashes: [...heights.map((h) => service.chain.blockByHeight(h)!.hash), syntheticPools.blockHashes[0]!],
      publicKeys: [devKeyPair(ALICE).publicKeyString, syntheticPools.publicKeys[0]!],
      txHashes: [submitted.hash, syntheticPools.txHashes[0]!],
      receiptIds: [...(status.receipts ?? []).map((r) => r.receipt_id), syntheticPools.receiptIds[0]!],
      signedTxs: txs,
      chunkHashes: [...service.chain.head().view.chunks.map((c) => c.chunk_hash), syntheticPools.chunkHashes[0]!],
    };
  });
  afterAll(() => service.close());

  it("never answers REQUEST_VALIDATION_ERROR to a valid request, and every answer matches the spec", async () => {
    const requests = servedByNearcore.flatMap(({ method, request }) => {
      const served = request.variants.filter((v) => !unserved(method, v));
      if (served.length === 0) return [{ method, params: null as unknown }];
      return fc.sample(fc.oneof(...served.map((v) => variantArbitrary(v, pools))), { numRuns: 8, seed: 12 }).map((params) => ({ method, params }));
    });
    for (const { method, params } of requests) {
      const reply = await rpc(service.rpcUrl, method, params);
      if (reply.body.error?.name === "REQUEST_VALIDATION_ERROR") throw new Error(`${method} ${JSON.stringify(params)}: ${JSON.stringify(reply.body.error)}`);
    }
  });
});
