// A list of strings kept in one storage entry (each u32 LE length ‖ UTF-8): small enumerable
// sets for fixture contracts, since NEAR storage cannot be iterated.
import { storageRead, storageRemove, storageWrite, utf8 } from "./near";

export function loadList(key: Uint8Array): string[] {
  const raw = storageRead(key);
  const out: string[] = [];
  if (raw == null) return out;
  let p: usize = 0;
  const n = <usize>raw.length;
  while (p < n) {
    const len = <usize>load<u32>(raw.dataStart + p);
    out.push(String.UTF8.decodeUnsafe(raw.dataStart + p + 4, len));
    p += 4 + len;
  }
  return out;
}

export function saveList(key: Uint8Array, items: string[]): void {
  if (items.length == 0) {
    storageRemove(key);
    return;
  }
  const parts: Uint8Array[] = [];
  let size = 0;
  for (let i = 0; i < items.length; i++) {
    const b = utf8(items[i]);
    parts.push(b);
    size += 4 + b.length;
  }
  const raw = new Uint8Array(size);
  let p = 0;
  for (let i = 0; i < parts.length; i++) {
    store<u32>(raw.dataStart + <usize>p, <u32>parts[i].length);
    raw.set(parts[i], p + 4);
    p += 4 + parts[i].length;
  }
  storageWrite(key, raw);
}
