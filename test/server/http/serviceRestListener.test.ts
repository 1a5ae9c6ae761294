// The REST listener as serve and the gateway open it (createServiceRestListener), over real HTTP:
// the index is asked at each read (serve swaps its indexer after a revert), /status carries the
// given version, and a failing read reaches the process hook named "REST <operationId>".

import { describe, expect, it } from "vitest";
import type { IndexReader } from "../../../src/indexer/IndexStore.js";
import { MemoryIndexStore } from "../../../src/indexer/MemoryIndexStore.js";
import { AccessControl } from "../../../src/server/http/AccessControl.js";
import { createServiceRestListener, type ServiceRestListenerOptions } from "../../../src/server/http/createServiceRestListener.js";
import { closeServer, listenOn } from "../../../src/server/http/serverLifecycle.js";
import { restHandlers } from "../../../src/server/rest/handlers.js";
import { blockUpdate } from "../../support/indexBlockUpdate.js";

function indexAt(height: number): MemoryIndexStore {
  const index = new MemoryIndexStore();
  index.apply(blockUpdate(height, 1_700_000_000_000_000_000n));
  return index;
}

/** Runs `body` against a listener on a free port with serve's handlers and version "7.7.7". */
async function withListener(
  options: Pick<ServiceRestListenerOptions, "index" | "headHeight" | "onInternalError">,
  body: (base: string) => Promise<void>,
): Promise<void> {
  const server = createServiceRestListener({ handlers: restHandlers, version: "7.7.7", access: AccessControl.open(), ...options });
  const base = await listenOn(server, 0, "127.0.0.1");
  try {
    await body(base);
  } finally {
    await closeServer(server);
  }
}

describe("createServiceRestListener", () => {
  it("reads the index current at each request and reports the given version", async () => {
    let index: IndexReader = indexAt(4);
    await withListener({ index: () => index, headHeight: () => 9 }, async (base) => {
      const first = (await (await fetch(`${base}/status`)).json()) as { sync_block_height: number; version: string };
      expect(first).toMatchObject({ sync_block_height: 4, version: "7.7.7" });
      expect(await (await fetch(`${base}/health`)).json()).toEqual({
        block_height: 4,
        status: "HighSyncBlockDiff { diff: 5, max_diff: 3 }",
      });
      index = indexAt(8); // what serve does after a revert: a new indexer, a new store
      expect(await (await fetch(`${base}/health`)).json()).toEqual({ block_height: 8, status: "ok" });
    });
  });

  it("answers 500 to a failing read and reports it as REST <operationId>", async () => {
    const down = () => Promise.reject(new Error("db down"));
    const failing: IndexReader = { status: down, account: down, accountsByKey: down, ftTop: down };
    const reported: string[] = [];
    const onInternalError = (method: string, error: unknown) => reported.push(`${method}: ${String(error)}`);
    await withListener({ index: () => failing, headHeight: () => 1, onInternalError }, async (base) => {
      const reply = await fetch(`${base}/v1/account/a.near/full`);
      expect(reply.status).toBe(500);
      expect(await reply.text()).toBe('"Internal server error"');
      expect(reported).toEqual(["REST accountFull: Error: db down"]);
    });
  });
});
