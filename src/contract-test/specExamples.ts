import openrpc from "../../generated/openrpc.json" with { type: "json" };

export interface RpcExample {
  readonly method: string;
  readonly name: string;
  /** By-name params of the example. */
  readonly params: Record<string, unknown>;
}

/** Every example of every method in the OpenRPC document, params as a by-name object. */
export function rpcExamples(): RpcExample[] {
  const methods: readonly { name: string; examples?: readonly { name: string; params: readonly { name: string; value: unknown }[] }[] }[] = openrpc.methods;
  return methods.flatMap((method) =>
    (method.examples ?? []).map((example) => ({
      method: method.name,
      name: example.name,
      params: Object.fromEntries(example.params.map((p) => [p.name, p.value])),
    })),
  );
}

