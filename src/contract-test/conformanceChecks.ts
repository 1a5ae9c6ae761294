import { restRouteTable, type RestOperationId } from "../../generated/rest/routes.js";
import { validateRestResponse } from "../../generated/rest/validators.js";
import { adaptExample } from "./adaptExample.js";
import type { CheckContext } from "./CheckContext.js";
import type { TargetFacts } from "./discoverTarget.js";
import { rpcReplyProblems } from "./rpcConformance.js";
import { rpcExamples } from "./specExamples.js";
import type { SuiteRunner } from "./SuiteRunner.js";

/** Methods that submit transactions: only the transaction checks call them, and only with --signer. */
export const WRITE_METHODS = new Set(["broadcast_tx_async", "broadcast_tx_commit", "send_tx"]);

/**
 * Dev-chain controls (near-sandbox's and shardkit's own): they rewrite the target's chain and a
 * nearcore node without the sandbox feature does not serve them, so the suite leaves them out.
 */
export const DEV_CHAIN_METHODS = new Set(["sandbox_patch_state", "sandbox_fast_forward", "shardkit_snapshot", "shardkit_revert", "shardkit_reset"]);

/** Methods shardkit serves beyond nearcore's: their checks are marked shardkit-only. */
const SHARDKIT_ONLY_METHODS = new Set(["rpc.discover"]);

/** Calls every spec example (adapted to the target) and validates the reply against the spec. */
export async function rpcConformanceChecks(suite: SuiteRunner, rpcUrl: string, facts: TargetFacts): Promise<void> {
  for (const example of rpcExamples().filter((e) => !DEV_CHAIN_METHODS.has(e.method))) {
    const name = `rpc ${example.method} ${example.name}`;
    if (WRITE_METHODS.has(example.method)) {
      await suite.skip("conformance", name, "writes: covered by the transaction checks (--signer)");
      continue;
    }
    const adapted = adaptExample(example.name, example.params, facts);
    const shardkitOnly = adapted.shardkitOnly || SHARDKIT_ONLY_METHODS.has(example.method);
    if ("skip" in adapted) {
      await suite.skip("conformance", name, adapted.skip, { shardkitOnly });
      continue;
    }
    await suite.check(
      "conformance",
      name,
      async (t) => {
        const reply = await t.rpc(rpcUrl, example.method, adapted.params);
        const problems = rpcReplyProblems(example.method, reply);
        if (problems.length > 0) t.fail(problems.join("; "));
      },
      { shardkitOnly },
    );
  }
}

/** Path parameter values the target has, by parameter name. */
function routeValues(facts: TargetFacts): Record<string, string | undefined> {
  return { account_id: facts.accountId, public_key: facts.publicKey, token_id: facts.contract?.accountId };
}

/** Fills a path template; undefined when a value is missing. */
export function fillPath(template: string, values: Record<string, string | undefined>): string | undefined {
  let missing = false;
  const path = template.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = values[name];
    if (value === undefined) missing = true;
    return encodeURIComponent(value ?? "");
  });
  return missing ? undefined : path;
}

/**
 * The `/v0` (transaction history) request bodies, from values the target has. A target without
 * a history index (503) skips them.
 */
function historyBodies(facts: TargetFacts): Partial<Record<RestOperationId, unknown>> {
  return {
    historyAccount: { account_id: facts.accountId, limit: 5 },
    historyBlock: { block_id: facts.finalHeight, with_transactions: true, with_receipts: true },
    historyBlocks: { limit: 3 },
    historyReceipt: { receipt_id: facts.transaction?.receiptId ?? facts.finalHash },
    historyTransactions: { tx_hashes: facts.transaction === undefined ? [] : [facts.transaction.hash] },
    historyTransfers: { account_id: facts.accountId, limit: 5, desc: true },
  };
}

/**
 * GETs every REST route with values from the target (POSTs the `/v0` ones with a body built
 * from them) and validates status and body against the spec.
 */
export async function restConformanceChecks(suite: SuiteRunner, apiUrl: string, facts: TargetFacts): Promise<void> {
  const bodies = historyBodies(facts);
  for (const route of Object.values(restRouteTable)) {
    const name = `rest ${route.method} ${route.path}`;
    if (route.hasBody) {
      await suite.check("conformance", name, async (t) => {
        const reply = await t.send("POST", `${apiUrl}${route.path}`, JSON.stringify(bodies[route.operationId] ?? {}), { "content-type": "application/json" });
        if (reply.status === 503) t.skip("the target has no transaction history index (503)");
        expectRestConforms(t, route.operationId, reply.status, reply.contentType, reply.json, reply.text);
        if (reply.status !== 200) t.fail(`HTTP ${reply.status} for ${JSON.stringify(bodies[route.operationId])}`);
      });
      continue;
    }
    const path = fillPath(route.path, routeValues(facts));
    if (path === undefined) {
      await suite.skip("conformance", name, "no value on the target for a path parameter");
      continue;
    }
    await suite.check("conformance", name, async (t) => {
      const reply = await t.send("GET", `${apiUrl}${path}`, undefined);
      expectRestConforms(t, route.operationId, reply.status, reply.contentType, reply.json, reply.text);
      if (reply.status !== 200) t.fail(`HTTP ${reply.status} for an existing ${path}`);
    });
  }
}

/** Fails unless the status is declared for the operation with a JSON body that validates. */
export function expectRestConforms(
  t: CheckContext,
  operationId: RestOperationId,
  status: number,
  contentType: string | null,
  json: unknown,
  text: string,
): void {
  if (status >= 500) t.fail(`HTTP ${status}: ${text.slice(0, 200)}`);
  if (!contentType?.startsWith("application/json")) t.fail(`HTTP ${status} with content-type ${contentType ?? "missing"}`);
  const problems = validateRestResponse(operationId, status, json);
  if (problems.length > 0) t.fail(problems.join("; "));
}
