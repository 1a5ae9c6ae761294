/** Worker thread of {@link WorkerBucketOrder}: orders each bucket it is sent and sends it back with its order. */
import { parentPort } from "node:worker_threads";
import { bucketOrder, type BucketOrderAnswer, type BucketOrderRequest } from "./bucketOrder.js";
import { errorMessage } from "@shardkit/primitives/errorMessage";

const port = parentPort!;
const answer = (message: BucketOrderAnswer, transfer: ArrayBuffer[] = []) => port.postMessage(message, transfer);
port.on("message", ({ buffer, length }: BucketOrderRequest) => {
  try {
    const order = bucketOrder(Buffer.from(buffer, 0, length));
    answer({ buffer, length, order }, [buffer, order.buffer]);
  } catch (e) {
    answer({ error: errorMessage(e) });
  }
});
