export type { CheckGroup, CheckOutcome, CheckResult } from "./checkResult.js";
export type { ContractTestOptions, SignerCredentials } from "./ContractTestOptions.js";
export { formatJunit, formatResultLines, formatSummary } from "./formatReport.js";
export { runContractTests, DEFAULT_TIMEOUT_MS, type ContractTestReport } from "./runContractTests.js";
export { parseSignerFlag } from "./signerKey.js";
