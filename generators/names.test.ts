// Name conversions used for generated type names and client functions.

import { describe, expect, it } from "vitest";
import { camelCase, identifier, pascalCase, propertyKey } from "./names.js";

describe("names", () => {
  it.each([
    ["gas_price", "GasPrice", "gasPrice"],
    ["rpc.discover", "RpcDiscover", "rpcDiscover"],
    ["send_tx", "SendTx", "sendTx"],
    ["broadcast_tx_async", "BroadcastTxAsync", "broadcastTxAsync"],
    ["tx", "Tx", "tx"],
    ["EXPERIMENTAL_tx_status", "ExperimentalTxStatus", "experimentalTxStatus"],
    ["EXPERIMENTAL_receipt", "ExperimentalReceipt", "experimentalReceipt"],
    ["view_state", "ViewState", "viewState"],
    ["viewAccessKey", "ViewAccessKey", "viewAccessKey"],
  ])("%s → %s / %s", (name, pascal, camel) => {
    expect(pascalCase(name)).toBe(pascal);
    expect(camelCase(name)).toBe(camel);
  });

  it("keeps identifiers and property keys valid", () => {
    expect(identifier("rpc.discover")).toBe("rpc_discover");
    expect(identifier("EXPERIMENTAL_tx_status")).toBe("EXPERIMENTAL_tx_status");
    expect(propertyKey("final_execution_status")).toBe("final_execution_status");
    expect(propertyKey("_EVMError")).toBe("_EVMError");
    expect(propertyKey("b-c")).toBe('"b-c"');
  });
});
