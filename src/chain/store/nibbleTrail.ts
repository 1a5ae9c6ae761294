import type { NodePath } from "./trieNode.js";
import { byteAt } from "../must.js";

/**
 * The nibbles of the path a depth-first trie walk is on, packed two per byte and overwritten
 * level by level. A walk that meets an on-disk reference hands the first `depth` nibbles to
 * the node store (which gives leaves their full keys) as one latin1 slice.
 */
export class NibbleTrail implements NodePath {
  private bytes = Buffer.alloc(128);

  set(depth: number, nibble: number): void {
    const i = depth >> 1;
    if (i >= this.bytes.length) this.grow(i + 1);
    const b = byteAt(this.bytes, i);
    this.bytes[i] = (depth & 1) === 0 ? (nibble << 4) | (b & 15) : (b & 0xf0) | nibble;
  }

  /** Writes a nibble-path string (char codes 0..15) from `depth` on. */
  setPath(depth: number, path: string): void {
    for (let i = 0; i < path.length; i++) this.set(depth + i, path.charCodeAt(i));
  }

  /** The first `depth` nibbles as latin1 bytes (an odd tail is the high half of the last byte; its low half is unspecified). */
  path(depth: number): string {
    return this.bytes.toString("latin1", 0, (depth + 1) >> 1);
  }

  leads(key: string, depth: number): boolean {
    const whole = depth >> 1;
    if (key.length * 2 < depth) return false;
    for (let i = 0; i < whole; i++) if (key.charCodeAt(i) !== this.bytes[i]) return false;
    return (depth & 1) === 0 || (key.charCodeAt(whole) & 0xf0) === (byteAt(this.bytes, whole) & 0xf0);
  }

  private grow(min: number): void {
    const next = Buffer.alloc(Math.max(min, this.bytes.length * 2));
    this.bytes.copy(next);
    this.bytes = next;
  }
}
