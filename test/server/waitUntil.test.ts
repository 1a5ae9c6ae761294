import { describe, expect, it } from "vitest";
import { meetsWaitUntil, type TxExecutionStatus } from "../../src/server/rpc/tx/waitUntil.js";

const order: TxExecutionStatus[] = ["NONE", "INCLUDED", "EXECUTED_OPTIMISTIC", "INCLUDED_FINAL", "EXECUTED", "FINAL"];

// nearcore's satisfaction table: rows = requested wait_until, columns = reached status.
const table: Record<TxExecutionStatus, string> = {
  NONE: "111111",
  INCLUDED: "011111",
  EXECUTED_OPTIMISTIC: "001011",
  INCLUDED_FINAL: "000111",
  EXECUTED: "000011",
  FINAL: "000001",
};

describe("wait_until satisfaction", () => {
  it.each(order)("requested %s", (requested) => {
    expect(order.map((reached) => (meetsWaitUntil(reached, requested) ? "1" : "0")).join("")).toBe(table[requested]);
  });
});
