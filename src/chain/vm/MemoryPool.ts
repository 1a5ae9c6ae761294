const PAGE = 65_536;
const ZERO_PAGE = Buffer.alloc(PAGE);

/**
 * Reusable guest memories. A fresh 64 MiB WebAssembly.Memory per call costs an allocation and,
 * worse, pushes V8 into a full garbage collection almost every call (external memory
 * pressure). A returned memory is reused only if it did not grow and after every non-zero
 * 64 KiB page is cleared, so the next call starts from all-zero memory of the initial size,
 * exactly like a fresh one. Scanning reads untouched pages through the kernel's zero page,
 * which is cheap.
 */
export class MemoryPool {
  private readonly free: WebAssembly.Memory[] = [];

  constructor(
    private readonly initialPages: number,
    private readonly maxPages: number,
    private readonly capacity = 4,
  ) {}

  take(): WebAssembly.Memory {
    return this.free.pop() ?? new WebAssembly.Memory({ initial: this.initialPages, maximum: this.maxPages });
  }

  /** Gives a memory back after a call; it must no longer be reachable from the call. */
  give(memory: WebAssembly.Memory): void {
    const bytes = new Uint8Array(memory.buffer);
    if (bytes.length !== this.initialPages * PAGE || this.free.length >= this.capacity) return;
    const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length);
    for (let at = 0; at < buf.length; at += PAGE) {
      if (buf.compare(ZERO_PAGE, 0, PAGE, at, at + PAGE) !== 0) buf.fill(0, at, at + PAGE);
    }
    this.free.push(memory);
  }
}
