/**
 * Rust's `{:?}` of a `str`: double-quoted with `\\`, `"`, `\n`, `\r`, `\t`, `\0` escaped and
 * other control characters as `\u{..}` (lower-case hex, no padding). nearcore prints VM errors
 * with Debug in the legacy view-call message, so panic texts appear in this form.
 */
export function rustDebugString(s: string): string {
  let out = '"';
  for (const ch of s) {
    const c = ch.codePointAt(0)!;
    switch (ch) {
      case "\\":
        out += "\\\\";
        break;
      case '"':
        out += '\\"';
        break;
      case "\n":
        out += "\\n";
        break;
      case "\r":
        out += "\\r";
        break;
      case "\t":
        out += "\\t";
        break;
      case "\0":
        out += "\\0";
        break;
      default:
        out += c < 0x20 || (c >= 0x7f && c < 0xa0) ? `\\u{${c.toString(16)}}` : ch;
    }
  }
  return out + '"';
}
