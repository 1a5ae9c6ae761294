import type { Server } from "node:http";
import type { RestHandlers } from "../../../generated/rest/routes.js";
import type { HistoryReader } from "../../indexer/history/HistoryStore.js";
import type { IndexReader } from "../../indexer/IndexStore.js";
import type { RestContext } from "../rest/RestContext.js";
import type { AccessGate } from "./AccessGate.js";
import { createRestListener } from "./createRestListener.js";

export interface ServiceRestListenerOptions {
  handlers: RestHandlers<RestContext>;
  /** The index the handlers read, asked at each read: `serve` replaces its indexer after a revert. */
  index: () => IndexReader;
  /** The transaction history index (`/v0`), asked at each read; without one `/v0` answers 503. */
  history?: () => HistoryReader;
  headHeight: () => number;
  /** Reported by /status. */
  version: string;
  access: AccessGate;
  /** The process's hook for unexpected failures; a REST one reaches it named "REST <operationId>". */
  onInternalError?: (method: string, error: unknown) => void;
}

/**
 * The REST `/v1` listener as a shardkit process opens it (`serve` over its own indexer, the
 * gateway over a shared index): only where the index and the head height come from differs.
 */
export function createServiceRestListener(options: ServiceRestListenerOptions): Server {
  const { index, history, onInternalError } = options;
  return createRestListener({
    handlers: options.handlers,
    context: {
      get index() {
        return index();
      },
      get history() {
        return history?.();
      },
      headHeight: options.headHeight,
      now: Date.now,
      version: options.version,
    },
    access: options.access,
    ...(onInternalError && {
      onInternalError: (operationId, error) => onInternalError(`REST ${operationId}`, error),
    }),
  });
}
