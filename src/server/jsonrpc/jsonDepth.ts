/**
 * Deepest nesting of arrays/objects in a JSON text, scanning bytes without parsing, and
 * stopping as soon as `limit` is exceeded. Brackets inside strings are skipped.
 * We check this before JSON.parse so that hostile nesting is refused cheaply with a clear
 * error instead of exhausting the stack in a later recursive step.
 */
export function exceedsJsonDepth(text: Buffer, limit: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === 0x5c) i++; // backslash: skip the escaped byte
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) {
      inString = true;
    } else if (c === 0x7b || c === 0x5b) {
      if (++depth > limit) return true;
    } else if (c === 0x7d || c === 0x5d) {
      depth--;
    }
  }
  return false;
}
