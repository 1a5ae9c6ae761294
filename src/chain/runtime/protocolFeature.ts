/**
 * The protocol versions the runtime gates behaviour by, as nearcore's
 * `core/primitives-core/src/version.rs` (`ProtocolFeature::protocol_version`) assigns them.
 * Only features whose rules differ in what shardkit runs are listed; the chain runs every older
 * feature unconditionally. Features that are parameters (87's gas reward, limits and VM flags)
 * come with the version's parameter table (`runtimeParametersFor`).
 */
export const PROTOCOL_FEATURE_VERSION = {
  /** NEP-616: the DeterministicStateInit action and 0s account ids. */
  DeterministicAccountIds: 82,
  /** A delegated DeterministicStateInit is checked against the delegate's receiver. */
  FixDelegatedDeterministicStateInit: 85,
  /** Transactions and receipts carrying DelegateV2 are refused. */
  RejectDelegateV2: 87,
  /** A WithdrawFromGasKey inside a Delegate is refused. */
  RejectWithdrawFromGasKeyInDelegate: 87,
  /** A FunctionCall (or a function-call access key) with an empty method name is refused. */
  RejectEmptyMethodName: 87,
} as const;

export type ProtocolFeature = keyof typeof PROTOCOL_FEATURE_VERSION;

/**
 * The newest protocol shardkit runs: nearcore 2.14's STABLE_PROTOCOL_VERSION (87, its release
 * candidates). A genesis at a later version is refused, since its rules are unknown here; a fork
 * of a later upstream runs this one.
 */
export const MAX_SUPPORTED_PROTOCOL_VERSION = 87;

export function isEnabled(feature: ProtocolFeature, protocolVersion: number): boolean {
  return protocolVersion >= PROTOCOL_FEATURE_VERSION[feature];
}
