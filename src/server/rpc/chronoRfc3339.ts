/**
 * Unix nanoseconds as chrono serialises a `DateTime<Utc>` (RFC 3339, `SecondsFormat::AutoSi`):
 * no fraction for whole seconds, else 3, 6 or 9 digits.
 */
export function chronoRfc3339(ns: bigint): string {
  const seconds = ns / 1_000_000_000n;
  const nanos = ns % 1_000_000_000n;
  const base = new Date(Number(seconds) * 1000).toISOString().slice(0, 19);
  if (nanos === 0n) return `${base}Z`;
  const digits = nanos.toString().padStart(9, "0");
  const width = nanos % 1_000_000n === 0n ? 3 : nanos % 1_000n === 0n ? 6 : 9;
  return `${base}.${digits.slice(0, width)}Z`;
}
