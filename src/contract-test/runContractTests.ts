import { authChecks } from "./authChecks.js";
import { behaviourChecks } from "./behaviourChecks.js";
import { CheckFailure } from "./CheckContext.js";
import type { CheckResult } from "./checkResult.js";
import { rpcConformanceChecks, restConformanceChecks } from "./conformanceChecks.js";
import type { ContractTestOptions } from "./ContractTestOptions.js";
import { discoverTarget } from "./discoverTarget.js";
import { rpcNegativeChecks, restNegativeChecks } from "./negativeChecks.js";
import { restBaseUrl } from "./restBaseUrl.js";
import { SuiteRunner } from "./SuiteRunner.js";
import { transactionChecks } from "./transactionChecks.js";

export const DEFAULT_TIMEOUT_MS = 15_000;

export interface ContractTestReport {
  readonly results: readonly CheckResult[];
  readonly passed: number;
  readonly failed: number;
  readonly skipped: number;
}

/**
 * Runs the contract-test suite against a deployment: spec conformance of every method and route,
 * behaviour rules, invalid inputs, auth (with an API key) and transactions (with a signer).
 * Read-only unless `signer` is given.
 */
export async function runContractTests(given: ContractTestOptions): Promise<ContractTestReport> {
  const options = given.apiUrl === undefined ? given : { ...given, apiUrl: restBaseUrl(given.apiUrl) };
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const headers = options.apiKey === undefined ? {} : { authorization: `Bearer ${options.apiKey}` };
  const suite = new SuiteRunner(timeoutMs, headers, options.onResult);

  // Transactions first, so that the read-only checks find one to look up with tx and EXPERIMENTAL_receipt.
  if (options.signer !== undefined) await transactionChecks(suite, options.rpcUrl, options.signer);
  let facts: Awaited<ReturnType<typeof discoverTarget>> | undefined;
  await suite.check("conformance", "discover the target (status, final block, an account and key)", async (t) => {
    try {
      facts = await discoverTarget(t, options.rpcUrl, options.contractAccount);
    } catch (error) {
      if (error instanceof CheckFailure) throw error;
      t.fail(`unexpected answer while discovering: ${error instanceof Error ? error.message : String(error)}`);
    }
  });
  if (facts !== undefined) {
    await rpcConformanceChecks(suite, options.rpcUrl, facts);
    if (options.apiUrl !== undefined) await restConformanceChecks(suite, options.apiUrl, facts);
    await behaviourChecks(suite, options.rpcUrl, options.archivalUrl, facts);
    await rpcNegativeChecks(suite, options.rpcUrl);
    if (options.apiUrl !== undefined) await restNegativeChecks(suite, options.apiUrl, facts);
  }
  if (options.apiKey !== undefined) {
    const hosts = [
      { name: "rpc", url: options.rpcUrl, kind: "rpc" as const },
      ...(options.archivalUrl === undefined ? [] : [{ name: "archival", url: options.archivalUrl, kind: "rpc" as const }]),
      ...(options.apiUrl === undefined ? [] : [{ name: "api", url: options.apiUrl, kind: "rest" as const }]),
    ];
    await authChecks(suite, options.apiKey, hosts);
  }
  const count = (outcome: CheckResult["outcome"]) => suite.results.filter((r) => r.outcome === outcome).length;
  return { results: suite.results, passed: count("pass"), failed: count("fail"), skipped: count("skip") };
}


