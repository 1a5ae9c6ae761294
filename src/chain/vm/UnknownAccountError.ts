/** A view call or state view of an account that does not exist (nearcore `AccountDoesNotExist`, RPC UNKNOWN_ACCOUNT). */
export class UnknownAccountError extends Error {
  override readonly name = "UnknownAccountError";
  constructor(readonly accountId: string) {
    super(`account ${accountId} does not exist while viewing`);
  }
}
