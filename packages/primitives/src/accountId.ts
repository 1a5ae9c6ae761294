import { ShardkitError } from "./ShardkitError.js";

/**
 * NEAR account id rules (nearcore `near-account-id`): 2..64 characters; parts separated by
 * '.'; each part is runs of [a-z0-9] joined by single '-' or '_'. Equivalently: only
 * [a-z0-9._-], an alphanumeric first and last character, and no two separators in a row.
 * A linear scan is used instead of the nested-quantifier regex to keep worst cases flat.
 */

export const MIN_ACCOUNT_ID_LEN = 2;
export const MAX_ACCOUNT_ID_LEN = 64;

function isAlnum(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 48 && c <= 57);
}

/** True when `id` is a valid NEAR account id. */
export function isValidAccountId(id: string): boolean {
  if (id.length < MIN_ACCOUNT_ID_LEN || id.length > MAX_ACCOUNT_ID_LEN) return false;
  let prevWasSeparator = true; // forbids a leading separator
  for (let i = 0; i < id.length; i++) {
    const c = id.charCodeAt(i);
    if (isAlnum(c)) {
      prevWasSeparator = false;
    } else if (c === 46 /* . */ || c === 45 /* - */ || c === 95 /* _ */) {
      if (prevWasSeparator) return false;
      prevWasSeparator = true;
    } else {
      return false;
    }
  }
  return !prevWasSeparator;
}

/** Thrown by {@link assertValidAccountId}. */
export class InvalidAccountIdError extends ShardkitError<"INVALID_ACCOUNT_ID"> {
  override readonly name = "InvalidAccountIdError";
  constructor(readonly accountId: string) {
    super("INVALID_ACCOUNT_ID", `invalid account id ${JSON.stringify(accountId)}`);
  }
}

/** Throws {@link InvalidAccountIdError} unless `id` is a valid NEAR account id. */
export function assertValidAccountId(id: string): void {
  if (!isValidAccountId(id)) throw new InvalidAccountIdError(id);
}
