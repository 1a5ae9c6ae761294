// Name conversions shared by the emitters.

function words(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .split(/[^A-Za-z0-9]+/)
    .filter((w) => w.length > 0);
}

/** `gas_price` → `GasPrice`, `rpc.discover` → `RpcDiscover`. */
export function pascalCase(name: string): string {
  return words(name)
    .map((w) => w[0]!.toUpperCase() + w.slice(1))
    .join("");
}

/** `gas_price` → `gasPrice`, `rpc.discover` → `rpcDiscover`. */
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
