import { isValidAccountId } from "@shardkit/primitives/accountId";
import { Base64Error, base64DecodeToLatin1 } from "../primitives/base64.js";
import type { StateRecord } from "./stateRecord.js";
import { at, byteAt } from "../must.js";

const QUOTE = 0x22;
const COLON = 0x3a;
const COMMA = 0x2c;
const OPEN = 0x7b;
const CLOSE = 0x7d;
const DATA = Buffer.from('"Data"');
const FIELDS = ['"account_id"', '"data_key"', '"value"'].map((name) => Buffer.from(name));

/**
 * Reads genesis `{"Data":{"account_id":…,"data_key":…,"value":…}}` records straight from their
 * bytes, without JSON.parse: a large genesis is millions of these, and parsing them as JSON
 * and then checking the objects was a third of the loader's parse time. Only the plain
 * spelling is taken (any whitespace, the three fields once each in any order, a valid
 * account id, canonical base64); for anything else `read` returns undefined and the record
 * goes through JSON.parse and `parseStateRecord`, which accept or reject it with their
 * messages. What it accepts, it decodes as they would. Strings are cut at the next quote
 * byte: an escape or a byte outside ASCII leaves a backslash or a char above 0x7f in the
 * string, which no account id, base64 text or field name accepts, so such a record falls
 * back too.
 */
export class DataRecordReader {
  private bytes: Buffer = Buffer.alloc(0);
  private at = 0;
  // The last account id, bytes and string: records of one contract repeat it millions of times.
  private lastAccount: Buffer = Buffer.alloc(0);
  private lastAccountId = "";

  read(bytes: Buffer): StateRecord | undefined {
    this.bytes = bytes;
    this.at = 0;
    if (!this.punct(OPEN) || !this.literal(DATA) || !this.punct(COLON) || !this.punct(OPEN)) return undefined;
    let accountId: string | undefined;
    let key: string | undefined;
    let value: string | undefined;
    for (let field = 0; field < 3; field++) {
      if (field > 0 && !this.punct(COMMA)) return undefined;
      const name = this.fieldName();
      if (name < 0 || !this.punct(COLON) || !this.punct(QUOTE)) return undefined;
      const start = this.at;
      const end = bytes.indexOf(QUOTE, start);
      if (end < 0) return undefined;
      this.at = end + 1;
      if (name === 0 && accountId === undefined) accountId = this.accountId(start, end);
      else if (name === 1 && key === undefined) key = bytes.toString("latin1", start, end);
      else if (name === 2 && value === undefined) value = bytes.toString("latin1", start, end);
      else return undefined;
      if (accountId === "") return undefined;
    }
    if (!this.punct(CLOSE) || !this.punct(CLOSE)) return undefined;
    this.skipSpace();
    if (this.at !== bytes.length) return undefined;
    try {
      return { kind: "Data", accountId: accountId!, key: base64DecodeToLatin1(key!), value: base64DecodeToLatin1(value!) };
    } catch (e) {
      if (e instanceof Base64Error) return undefined;
      throw e;
    }
  }

  /** The account id between `start` and `end`, "" when it is not a valid one. */
  private accountId(start: number, end: number): string {
    const b = this.bytes;
    if (sameBytes(b, start, end, this.lastAccount)) return this.lastAccountId;
    const id = b.toString("latin1", start, end);
    if (!isValidAccountId(id)) return "";
    this.lastAccount = Buffer.from(b.subarray(start, end));
    this.lastAccountId = id;
    return id;
  }

  private skipSpace(): void {
    const b = this.bytes;
    while (this.at < b.length) {
      const c = byteAt(b, this.at);
      if (c !== 0x20 && c !== 0x0a && c !== 0x0d && c !== 0x09) return;
      this.at++;
    }
  }

  private punct(c: number): boolean {
    this.skipSpace();
    if (this.bytes[this.at] !== c) return false;
    this.at++;
    return true;
  }

  private literal(text: Buffer): boolean {
    this.skipSpace();
    const end = this.at + text.length;
    if (end > this.bytes.length || !sameBytes(this.bytes, this.at, end, text)) return false;
    this.at = end;
    return true;
  }

  /** Index of the field name at the cursor in FIELDS, -1 for any other. */
  private fieldName(): number {
    for (let i = 0; i < FIELDS.length; i++) if (this.literal(at(FIELDS, i))) return i;
    return -1;
  }
}

/** bytes[start, end) equals `other` (a byte loop: Buffer#compare's native call costs more on a few bytes). */
function sameBytes(bytes: Buffer, start: number, end: number, other: Buffer): boolean {
  if (end - start !== other.length) return false;
  for (let i = 0; i < other.length; i++) if (bytes[start + i] !== other[i]) return false;
  return true;
}
