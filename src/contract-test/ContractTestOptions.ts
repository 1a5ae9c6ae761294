import type { CheckResult } from "./checkResult.js";

/** An account and the secret key ("ed25519:<base58 64 bytes>") the write checks sign with. */
export interface SignerCredentials {
  readonly accountId: string;
  readonly secretKey: string;
}

export interface ContractTestOptions {
  /** Regular JSON-RPC endpoint. */
  readonly rpcUrl: string;
  /** Archival JSON-RPC endpoint: enables the retention checks. */
  readonly archivalUrl?: string;
  /** REST API URL, with or without a final `/v1` (as serve prints it): enables the route checks. */
  readonly apiUrl?: string;
  /** Sent as `Authorization: Bearer`; enables the auth checks. */
  readonly apiKey?: string;
  /** Enables the checks that write (transfers of 1 yoctoNEAR from the signer to itself). */
  readonly signer?: SignerCredentials;
  /**
   * A contract account with state, for the view_state, proof, view_code and call_function checks.
   * Without it they run only against shardkit (its `ft.test.near` fixture) and are marked shardkit-only.
   */
  readonly contractAccount?: string;
  /** Per-request deadline; default 15 s. */
  readonly timeoutMs?: number;
  /** Called as each check finishes (progress display). */
  readonly onResult?: (result: CheckResult) => void;
}
