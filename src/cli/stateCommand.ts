import { parseArgs } from "node:util";

export const stateUsage = `Usage: shardkit state dump [--data-dir D] --out FILE [--block H]

  dump           write the state after block H (default: the last final block) of the chain in
                 the data dir (default ./.shardkit) as a nearcore genesis file; start a new chain
                 from it with \`shardkit serve --genesis FILE --data-dir NEW\`
`;

/** `shardkit state …`: reads a data dir (a running serve may keep writing it). */
export async function stateCommand(args: string[], log: (line: string) => void = console.log): Promise<void> {
  const [action, ...rest] = args;
  if (action === undefined || action === "help" || action === "--help") {
    log(stateUsage);
    return;
  }
  if (action !== "dump") throw new Error(`unknown state action ${JSON.stringify(action)}\n\n${stateUsage}`);
  const { values } = parseArgs({
    args: rest,
    options: { "data-dir": { type: "string" }, out: { type: "string" }, block: { type: "string" } },
    strict: true,
  });
  const out = values.out;
  if (out === undefined || out === "") throw new Error("state dump needs --out FILE");
  if (values.block !== undefined && !/^\d+$/.test(values.block)) throw new Error(`--block must be a block height, got ${JSON.stringify(values.block)}`);
  const dataDir = values["data-dir"] ?? "./.shardkit";
  // Loaded here: `shardkit --help` imports this file for its usage, without the chain.
  const [{ LmdbChainStore }, { Chain }, { dumpGenesis }] = await Promise.all([
    import("../chain/store/LmdbChainStore.js"),
    import("../chain/node.js"),
    import("../chain/genesis/dumpGenesis.js"),
  ]);
  // A reader: no writer lock, so a dump may run beside the serve that keeps writing the dir.
  const store = LmdbChainStore.open(dataDir, { lock: false });
  if (store.genesis() === undefined) {
    await store.close();
    throw new Error(`data dir ${dataDir} holds no chain`);
  }
  const chain = await Chain.open({ chainStore: store, blockTimeMs: 0 });
  try {
    const block = values.block === undefined ? chain.blockByFinality("final") : chain.blockByHeight(Number(values.block));
    if (block === undefined) throw new Error(`no block ${values.block} (the chain is at ${chain.head().height})`);
    const started = Date.now();
    const { records, skipped } = await dumpGenesis(chain, block, out);
    log(`shardkit: wrote ${records} records of block ${block.height} (${block.hash}) to ${out} in ${Date.now() - started} ms`);
    if (skipped > 0) log(`shardkit: left out ${skipped} entries of receipts in flight (no genesis record kind)`);
  } finally {
    await chain.close();
  }
}
