/**
 * The nibbles of the path a depth-first trie walk is on, overwritten level by level. A walk
 * that meets an on-disk reference turns the first `depth` nibbles into the latin1 path the
 * node store needs to give leaves their full keys.
 */
export class NibbleTrail {
  private nibbles = new Uint8Array(256);

  set(depth: number, nibble: number): void {
    if (depth >= this.nibbles.length) this.grow(depth + 1);
    this.nibbles[depth] = nibble;
  }

  /** Writes a nibble-path string (char codes 0..15) from `depth` on. */
  setPath(depth: number, path: string): void {
    if (depth + path.length > this.nibbles.length) this.grow(depth + path.length);
    for (let i = 0; i < path.length; i++) this.nibbles[depth + i] = path.charCodeAt(i);
  }

  /** The first `depth` nibbles packed as latin1 bytes (an odd tail is the high half of the last byte). */
  path(depth: number): string {
    let out = "";
    for (let i = 0; i < depth; i += 2) {
      const lo = i + 1 < depth ? this.nibbles[i + 1]! : 0;
      out += String.fromCharCode((this.nibbles[i]! << 4) | lo);
    }
    return out;
  }

  private grow(min: number): void {
    const next = new Uint8Array(Math.max(min, this.nibbles.length * 2));
    next.set(this.nibbles);
    this.nibbles = next;
  }
}
