/** Worker thread of {@link WorkerBucketOrder}: orders each bucket it is sent and sends it back with its order. */
import { parentPort } from "node:worker_threads";
import { bucketOrder } from "./bucketOrder.js";

const port = parentPort!;
port.on("message", ({ buffer, length }: { buffer: ArrayBuffer; length: number }) => {
  try {
    const order = bucketOrder(Buffer.from(buffer, 0, length));
    port.postMessage({ buffer, length, order }, [buffer, order.buffer as ArrayBuffer]);
  } catch (e) {
    port.postMessage({ error: (e as Error).message });
  }
});
