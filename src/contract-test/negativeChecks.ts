import { isJsonObject } from "@shardkit/primitives/isJsonObject";
import { isRpcMethodName } from "../../generated/rpc/methods.js";
import { restRouteTable } from "../../generated/rest/routes.js";
import { DEV_CHAIN_METHODS, expectRestConforms, fillPath, WRITE_METHODS } from "./conformanceChecks.js";
import type { TargetFacts } from "./discoverTarget.js";
import { invalidParamsFor } from "./invalidParams.js";
import { rpcReplyProblems } from "./rpcConformance.js";
import { rpcExamples } from "./specExamples.js";
import type { SuiteRunner } from "./SuiteRunner.js";

/**
 * Invalid params derived from the schemas must get PARSE_ERROR as the spec catalogues it (code,
 * HTTP status, info), never a 5xx or a hang. Variants of write methods that still carry a
 * signed transaction are left out: a server that wrongly accepted one would submit it.
 */
export async function rpcNegativeChecks(suite: SuiteRunner, rpcUrl: string): Promise<void> {
  const seen = new Set<string>();
  for (const example of rpcExamples()) {
    const method = example.method;
    if (!isRpcMethodName(method) || DEV_CHAIN_METHODS.has(method)) continue;
    for (const invalid of invalidParamsFor(method, example.params)) {
      const key = `${method} ${JSON.stringify(invalid.params)}`;
      if (seen.has(key)) continue;
      seen.add(key);
      const signed = isJsonObject(invalid.params) ? invalid.params["signed_tx_base64"] : undefined;
      if (WRITE_METHODS.has(method) && signed === example.params["signed_tx_base64"]) continue;
      await suite.check("negative", `rpc ${method} ${example.name}: ${invalid.description}`, async (t) => {
        const reply = await t.rpc(rpcUrl, method, invalid.params);
        if (reply.status >= 500) t.fail(`HTTP ${reply.status} for invalid params`);
        const problems = rpcReplyProblems(method, reply);
        if (problems.length > 0) t.fail(problems.join("; "));
        const cause = reply.envelope.error?.cause?.name;
        if (cause !== "PARSE_ERROR") t.fail(`invalid params must get PARSE_ERROR, got ${cause === undefined ? "a result" : String(cause)}`);
      });
    }
  }

  await suite.check("negative", "rpc envelope: unknown method", async (t) => {
    const reply = await t.rpc(rpcUrl, "contract_test_no_such_method", {});
    const problems = rpcReplyProblems("contract_test_no_such_method", reply);
    if (problems.length > 0) t.fail(problems.join("; "));
    if (reply.envelope.error?.cause?.name !== "METHOD_NOT_FOUND") t.fail(`got ${JSON.stringify(reply.envelope.error?.cause?.name)}, not METHOD_NOT_FOUND`);
  });
  await suite.check("negative", "rpc envelope: malformed JSON", async (t) => {
    const reply = await t.send("POST", rpcUrl, '{"jsonrpc":"2.0",');
    if (reply.status < 400 || reply.status >= 500) t.fail(`malformed JSON got HTTP ${reply.status}, not a 4xx`);
  });
}

/** Path parameters that break their schema must get the route's 400 body, never a 5xx. */
export async function restNegativeChecks(suite: SuiteRunner, apiUrl: string, facts: TargetFacts): Promise<void> {
  const invalid: Record<string, string> = {
    account_id: "Not A Valid Account!",
    public_key: "ed25519:0OIl0OIl",
    token_id: "Not A Valid Account!",
  };
  for (const route of Object.values(restRouteTable)) {
    const params = route.segments.flatMap((s) => ("param" in s ? [s.param] : []));
    for (const param of params) {
      const values = { account_id: facts.accountId, public_key: facts.publicKey ?? "ed25519:11111111111111111111111111111111", token_id: facts.accountId, [param]: invalid[param] };
      const path = fillPath(route.path, values);
      if (path === undefined) continue;
      await suite.check("negative", `rest ${route.method} ${route.path}: ${param} invalid`, async (t) => {
        const reply = await t.send("GET", `${apiUrl}${path}`, undefined);
        expectRestConforms(t, route.operationId, reply.status, reply.contentType, reply.json, reply.text);
        if (reply.status !== 400) t.fail(`an invalid ${param} got HTTP ${reply.status}, not 400`);
      });
    }
  }
}
