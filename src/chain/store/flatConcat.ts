/**
 * `a + b` for latin1 strings as one flat string. Plain concatenation builds a V8 rope
 * (an extra ~32-byte object per key, kept alive by the trie); short results are copied
 * flat by V8 anyway, long ones are flattened here through a char-code copy.
 */
export function flatConcat(a: string, b: string): string {
  const joined = a + b;
  if (joined.length <= 12) return joined;
  // Reading one char of a rope makes V8 flatten it in place (ConsString → flat + "").
  // A rope whose second half is empty is shortcut by the GC, leaving just the flat string.
  joined.charCodeAt(0);
  return joined;
}
