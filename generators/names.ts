// Name conversions shared by the emitters.

function words(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .split(/[^A-Za-z0-9]+/)
    .filter((w) => w.length > 0);
}

/** One word of an identifier: an all-capitals word (`EXPERIMENTAL`) is read as a plain word. */
function capitalise(word: string): string {
  const plain = /^[A-Z0-9]+$/.test(word) ? word.toLowerCase() : word;
  return plain[0]!.toUpperCase() + plain.slice(1);
}

/** `gas_price` → `GasPrice`, `rpc.discover` → `RpcDiscover`, `EXPERIMENTAL_tx_status` → `ExperimentalTxStatus`. */
export function pascalCase(name: string): string {
  return words(name).map(capitalise).join("");
}

/** `gas_price` → `gasPrice`, `rpc.discover` → `rpcDiscover`, `EXPERIMENTAL_receipt` → `experimentalReceipt`. */
export function camelCase(name: string): string {
  const pascal = pascalCase(name);
  return pascal.length === 0 ? pascal : pascal[0]!.toLowerCase() + pascal.slice(1);
}

/** A JavaScript identifier fragment: every run of non-word characters becomes `_`. */
export function identifier(name: string): string {
  return name.replace(/[^A-Za-z0-9_$]+/g, "_");
}

/** Property key as written in a TS type or object literal: bare when it is an identifier. */
export function propertyKey(name: string): string {
  return /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(name) ? name : JSON.stringify(name);
}
