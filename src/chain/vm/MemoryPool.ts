const PAGE = 65_536;
const ZERO_PAGE = Buffer.alloc(PAGE);

/**
 * Reusable guest memories. A fresh 64 MiB WebAssembly.Memory per call costs an allocation and,
 * worse, pushes V8 into a full garbage collection almost every call (external memory
 * pressure). A returned memory is reused only if it did not grow and after every non-zero
 * 64 KiB page is cleared, so the next call starts from all-zero memory of the initial size,
 * exactly like a fresh one. Clearing (a scan of the whole memory, ~1.5 ms) is deferred to the
 * next turn of the event loop, so a view call's answer does not wait for it; a call that needs
 * a memory before then clears one itself.
 */
export class MemoryPool {
  private readonly clean: WebAssembly.Memory[] = [];
  private readonly dirty: WebAssembly.Memory[] = [];
  private scheduled = false;

  constructor(
    private readonly initialPages: number,
    private readonly maxPages: number,
    private readonly capacity = 4,
  ) {}

  take(): WebAssembly.Memory {
    const ready = this.clean.pop();
    if (ready !== undefined) return ready;
    const used = this.dirty.pop();
    if (used !== undefined) return zeroed(used);
    return new WebAssembly.Memory({ initial: this.initialPages, maximum: this.maxPages });
  }

  /** Gives a memory back after a call; it must no longer be reachable from the call. */
  give(memory: WebAssembly.Memory): void {
    if (memory.buffer.byteLength !== this.initialPages * PAGE) return; // grew: cannot shrink back
    if (this.clean.length + this.dirty.length >= this.capacity) return;
    this.dirty.push(memory);
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      this.clearAll();
    }).unref();
  }

  /** Clears every returned memory now (also what the deferred task does). */
  clearAll(): void {
    for (let m = this.dirty.pop(); m !== undefined; m = this.dirty.pop()) this.clean.push(zeroed(m));
  }
}

function zeroed(memory: WebAssembly.Memory): WebAssembly.Memory {
  const buf = Buffer.from(memory.buffer);
  for (let at = 0; at < buf.length; at += PAGE) {
    if (buf.compare(ZERO_PAGE, 0, PAGE, at, at + PAGE) !== 0) buf.fill(0, at, at + PAGE);
  }
  return memory;
}
