const PAGE = 65_536;
const ZERO_PAGE = Buffer.alloc(PAGE);
/** Dirty prefixes up to this size are cleared at once with a plain fill (a memset of ≤ 1 MiB: tens of µs). */
const CLEAR_NOW_BYTES = 1 << 20;

interface Dirty {
  readonly memory: WebAssembly.Memory;
  /** Nothing at or above this offset was written (the whole memory when unknown). */
  readonly end: number;
}

/**
 * Reusable guest memories. A fresh 64 MiB WebAssembly.Memory per call costs an allocation and,
 * worse, pushes V8 into a full garbage collection almost every call (external memory
 * pressure). A returned memory is reused only if it did not grow and after it is all-zero
 * again, so the next call starts from all-zero memory of the initial size, exactly like a
 * fresh one.
 *
 * Clearing is bounded by how far the call can have written (runContract's write tracking:
 * the instrumentation's store mark, data segments, host writes). Measured on the FT contract
 * (bench/vmCall.ts, same run): scanning all 1024 pages for non-zero ones cost ~1.3 ms per call
 * (an empty view call 1.35 ms, ~60% of ft_transfer's time in the profile), clearing the
 * written prefix (a few KiB-hundreds of KiB) costs microseconds. A small prefix is filled at
 * once; a large or unknown one is scanned page by page on the next turn of the event loop (so
 * a view call's answer does not wait), or by a call that needs the memory before then.
 */
export class MemoryPool {
  private readonly clean: WebAssembly.Memory[] = [];
  private readonly dirty: Dirty[] = [];
  private scheduled = false;

  constructor(
    private readonly initialPages: number,
    private readonly maxPages: number,
    private readonly capacity = 4,
  ) {}

  /** Whether this pool's memories are the ones a call under these limits starts with. */
  fits(initialPages: number, maxPages: number): boolean {
    return initialPages === this.initialPages && maxPages === this.maxPages;
  }

  take(): WebAssembly.Memory {
    const ready = this.clean.pop();
    if (ready !== undefined) return ready;
    const used = this.dirty.pop();
    if (used !== undefined) return zeroed(used);
    return new WebAssembly.Memory({ initial: this.initialPages, maximum: this.maxPages });
  }

  /**
   * Gives a memory back after a call; it must no longer be reachable from the call.
   * `writtenEnd`: no byte at or above it was written since take() (omitted: unknown).
   */
  give(memory: WebAssembly.Memory, writtenEnd?: number): void {
    const size = this.initialPages * PAGE;
    if (memory.buffer.byteLength !== size) return; // grew: cannot shrink back
    if (this.clean.length + this.dirty.length >= this.capacity) return;
    const end = Math.min(writtenEnd ?? size, size);
    if (end <= CLEAR_NOW_BYTES) {
      new Uint8Array(memory.buffer, 0, end).fill(0);
      this.clean.push(memory);
      return;
    }
    this.dirty.push({ memory, end });
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      this.clearAll();
    }).unref();
  }

  /** Clears every returned memory now (also what the deferred task does). */
  clearAll(): void {
    for (let d = this.dirty.pop(); d !== undefined; d = this.dirty.pop()) this.clean.push(zeroed(d));
  }
}

function zeroed({ memory, end }: Dirty): WebAssembly.Memory {
  const buf = Buffer.from(memory.buffer);
  for (let at = 0; at < end; at += PAGE) {
    if (buf.compare(ZERO_PAGE, 0, PAGE, at, at + PAGE) !== 0) buf.fill(0, at, at + PAGE);
  }
  return memory;
}
