// How the docs site groups the JSON-RPC methods: by what they are for, core methods first, each
// EXPERIMENTAL_* name beside the stable method it is the older name or richer variant of, and
// near-sandbox's and shardkit's own dev-chain methods in a group of their own. A method this table
// does not know still appears: beside its stable name (EXPERIMENTAL_x), in the dev-chain group
// (sandbox_*, shardkit_*), or under "Other methods".

export interface MethodEntry {
  name: string;
  /** EXPERIMENTAL_* names shown beside this one. */
  aliases: string[];
}

export interface MethodGroup {
  title: string;
  id: string;
  methods: MethodEntry[];
}

const GROUPS: [title: string, id: string, methods: string[]][] = [
  ["Blocks and chunks", "blocks", ["block", "chunk", "block_effects", "changes", "EXPERIMENTAL_congestion_level"]],
  ["Accounts, keys and contracts", "accounts", ["query"]],
  ["Transactions", "transactions", ["send_tx", "broadcast_tx_async", "broadcast_tx_commit", "tx", "EXPERIMENTAL_receipt"]],
  [
    "Node, protocol and validators",
    "node",
    ["status", "health", "gas_price", "genesis_config", "EXPERIMENTAL_protocol_config", "validators", "EXPERIMENTAL_validators_ordered", "maintenance_windows", "client_config", "network_info", "EXPERIMENTAL_split_storage_info", "rpc.discover"],
  ],
  ["Light clients", "light-clients", ["light_client_proof", "next_light_client_block", "EXPERIMENTAL_light_client_block_proof"]],
];

const DEV_GROUP: [string, string] = ["Sandbox and shardkit (dev chain)", "dev-chain"];
const OTHER_GROUP: [string, string] = ["Other methods", "other"];

/** EXPERIMENTAL_* names whose stable method has another name than the suffix. */
const ALIAS_OF: Record<string, string> = { EXPERIMENTAL_changes_in_block: "block_effects", EXPERIMENTAL_tx_status: "tx" };

/** The stable method an EXPERIMENTAL_* name sits beside, if that method exists. */
function stableOf(name: string, names: Set<string>): string | undefined {
  const target = ALIAS_OF[name] ?? (name.startsWith("EXPERIMENTAL_") ? name.slice("EXPERIMENTAL_".length) : undefined);
  return target !== undefined && names.has(target) ? target : undefined;
}

/** The methods in their groups, in reading order; every name appears exactly once. */
export function methodGroups(methodNames: string[]): MethodGroup[] {
  const names = new Set(methodNames);
  const aliases = new Map<string, string[]>();
  const placed = new Set<string>();
  for (const name of [...methodNames].sort()) {
    const stable = stableOf(name, names);
    if (stable !== undefined) {
      aliases.set(stable, [...(aliases.get(stable) ?? []), name]);
      placed.add(name);
    }
  }
  const entry = (name: string): MethodEntry => {
    placed.add(name);
    return { name, aliases: aliases.get(name) ?? [] };
  };
  const groups: MethodGroup[] = GROUPS.map(([title, id, members]) => ({ title, id, methods: members.filter((m) => names.has(m)).map(entry) }));
  const rest = [...methodNames].sort().filter((name) => !placed.has(name));
  const dev = rest.filter((name) => /^(sandbox|shardkit)_/.test(name));
  groups.push({ title: DEV_GROUP[0], id: DEV_GROUP[1], methods: dev.map(entry) });
  groups.push({ title: OTHER_GROUP[0], id: OTHER_GROUP[1], methods: rest.filter((name) => !dev.includes(name)).map(entry) });
  return groups.filter((group) => group.methods.length > 0);
}
