/**
 * What the host reaches outside the VM (nearcore `External`): the current account's contract
 * storage and the validator set. Keys and values are raw bytes; keys passed in may be views of
 * guest memory, valid for the duration of the call (an implementation that keeps one copies it).
 */
export interface VmExternal {
  storageGet(key: Uint8Array): Uint8Array | undefined;
  storageSet(key: Uint8Array, value: Uint8Array): void;
  storageRemove(key: Uint8Array): void;
  /** Stake of a current validator, undefined when the account is not one. */
  validatorStake(accountId: string): bigint | undefined;
  validatorTotalStake(): bigint;
  /**
   * Yield/resume bookkeeping of the current account (nearcore RuntimeExt): whether a yield
   * with this data id is still awaiting its data (its receipt is stored or its status is set),
   * and the status a yield or a resume leaves. Written with the call's other state. An
   * external without them (a unit-test mock) has no yield awaiting and keeps no status.
   */
  promiseYieldAwaiting?(dataId: Uint8Array): boolean;
  setPromiseYieldStatus?(dataId: Uint8Array, status: "Yielded" | "ResumeInitiated"): void;
  /**
   * Yield ids (promise_yield_create_with_id): the data id a pending yield id stands for, and
   * the two-way mapping a new one leaves (removed by the runtime when the yield runs).
   */
  yieldIdDataId?(yieldId: Uint8Array): Uint8Array | undefined;
  setYieldIdMapping?(yieldId: Uint8Array, dataId: Uint8Array): void;
}
