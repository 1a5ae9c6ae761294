import { isValidAccountId } from "../primitives/accountId.js";
import { Base64Error, base64DecodeToLatin1 } from "../primitives/base64.js";
import type { StateRecord } from "./stateRecord.js";

const QUOTE = 0x22;
const COLON = 0x3a;
const COMMA = 0x2c;
const OPEN = 0x7b;
const CLOSE = 0x7d;

/**
 * A genesis `{"Data":{"account_id":…,"data_key":…,"value":…}}` record read straight from its
 * bytes, without JSON.parse: a large genesis is millions of these, and parsing them as JSON
 * and then checking the objects was a third of the loader's parse time. Only the plain
 * spelling is taken (any whitespace, the three fields once each in any order, strings of
 * printable ASCII without escapes, a valid account id, canonical base64); for anything else
 * this returns undefined and the record goes through JSON.parse and `parseStateRecord`, which
 * accept or reject it with their messages. What it accepts, it decodes as they would.
 */
export function dataRecordFromBytes(bytes: Buffer): StateRecord | undefined {
  const reader = new Tokens(bytes);
  if (!reader.punct(OPEN) || reader.string() !== "Data" || !reader.punct(COLON) || !reader.punct(OPEN)) return undefined;
  let accountId: string | undefined;
  let key: string | undefined;
  let value: string | undefined;
  for (let field = 0; field < 3; field++) {
    if (field > 0 && !reader.punct(COMMA)) return undefined;
    const name = reader.string();
    if (!reader.punct(COLON)) return undefined;
    const text = reader.string();
    if (text === undefined) return undefined;
    if (name === "account_id" && accountId === undefined) accountId = text;
    else if (name === "data_key" && key === undefined) key = text;
    else if (name === "value" && value === undefined) value = text;
    else return undefined;
  }
  if (!reader.punct(CLOSE) || !reader.punct(CLOSE) || !reader.atEnd()) return undefined;
  if (!isValidAccountId(accountId!)) return undefined;
  try {
    return { kind: "Data", accountId: accountId!, key: base64DecodeToLatin1(key!), value: base64DecodeToLatin1(value!) };
  } catch (e) {
    if (e instanceof Base64Error) return undefined;
    throw e;
  }
}

/** The few JSON tokens a Data record has, over raw bytes. */
class Tokens {
  private at = 0;
  constructor(private readonly bytes: Buffer) {}

  private skipSpace(): void {
    const b = this.bytes;
    while (this.at < b.length) {
      const c = b[this.at]!;
      if (c !== 0x20 && c !== 0x0a && c !== 0x0d && c !== 0x09) return;
      this.at++;
    }
  }

  punct(c: number): boolean {
    this.skipSpace();
    if (this.bytes[this.at] !== c) return false;
    this.at++;
    return true;
  }

  /** A string of printable ASCII without escapes, or undefined. */
  string(): string | undefined {
    if (!this.punct(QUOTE)) return undefined;
    const b = this.bytes;
    const start = this.at;
    for (let i = start; i < b.length; i++) {
      const c = b[i]!;
      if (c === QUOTE) {
        this.at = i + 1;
        return b.toString("latin1", start, i);
      }
      if (c < 0x20 || c > 0x7e || c === 0x5c) return undefined;
    }
    return undefined;
  }

  atEnd(): boolean {
    this.skipSpace();
    return this.at === this.bytes.length;
  }
}
