import { MAX_ACCOUNT_ID_LEN, MIN_ACCOUNT_ID_LEN } from "@shardkit/primitives/accountId";

/**
 * Why nearcore's `near-account-id` refuses an id, as its `ParseAccountError` displays it
 * ("the Account ID contains an invalid character 'A' at index 0"), or undefined for a valid id.
 * nearcore checks the UTF-8 byte length first, then scans characters: the index it reports
 * counts characters, and a trailing separator is reported as a redundant one.
 */
export function accountIdParseError(id: string): string | undefined {
  const bytes = Buffer.byteLength(id, "utf8");
  if (bytes < MIN_ACCOUNT_ID_LEN) return "the Account ID is too short";
  if (bytes > MAX_ACCOUNT_ID_LEN) return "the Account ID is too long";
  let lastWasSeparator = true;
  let index = -1;
  let last = "";
  for (const char of id) {
    index++;
    last = char;
    const separator = char === "-" || char === "_" || char === ".";
    if (!separator && !/^[a-z0-9]$/.test(char)) return `the Account ID contains an invalid character ${rustCharDebug(char)} at index ${index}`;
    if (separator && lastWasSeparator) return `the Account ID has a redundant separator ${rustCharDebug(char)} at index ${index}`;
    lastWasSeparator = separator;
  }
  if (lastWasSeparator) return `the Account ID has a redundant separator ${rustCharDebug(last)} at index ${index}`;
  return undefined;
}

/** The message serde gives when a params field of nearcore's `AccountId` type is invalid. */
export function accountIdSerdeMessage(id: string, reason: string): string {
  return `invalid value: "${id}", ${reason}`;
}

const escapes: Record<string, string> = { "\t": "\\t", "\r": "\\r", "\n": "\\n", "\\": "\\\\", "'": "\\'", "\0": "\\0" };

/** Rust's `{:?}` of a `char`: quoted, with the common escapes and `\u{..}` for control characters. */
function rustCharDebug(char: string): string {
  const escaped = escapes[char];
  if (escaped !== undefined) return `'${escaped}'`;
  if (/\p{Cc}|\p{Zl}|\p{Zp}|\p{Cf}|\p{Mn}/u.test(char)) return `'\\u{${(char.codePointAt(0) ?? 0).toString(16)}}'`;
  return `'${char}'`;
}
