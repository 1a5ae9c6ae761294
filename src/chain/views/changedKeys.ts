import type { Block, Chain } from "../node.js";
import type { StateSnapshot } from "../store/stateStore.js";

/** Every key of a snapshot with its value, in key order. */
function entries(state: StateSnapshot): [string, string][] {
  const all: [string, string][] = [];
  state.scan("", undefined, (key, value) => {
    all.push([key, value]);
  });
  return all;
}

/** Keys whose value differs between two key-ordered entry lists (added, removed or changed). */
function diffKeys(before: [string, string][], after: [string, string][]): string[] {
  const changed: string[] = [];
  let i = 0;
  let j = 0;
  while (i < before.length || j < after.length) {
    const b = before[i];
    const a = after[j];
    if (a === undefined || (b !== undefined && b[0] < a[0])) {
      changed.push(b![0]);
      i++;
    } else if (b === undefined || a[0] < b[0]) {
      changed.push(a[0]);
      j++;
    } else {
      if (a[1] !== b[1]) changed.push(a[0]);
      i++;
      j++;
    }
  }
  return changed;
}

/**
 * The trie keys (latin1) whose value a block changed, over all shards, in key byte order:
 * the difference between the previous block's post-state and this block's (the empty state
 * for the genesis block). The chain keeps states, not the writes that led to them, so a key
 * written back to its old value within the block is not seen. Shards whose root did not
 * move are skipped; a moved shard costs a scan of both states.
 */
export function changedKeysInBlock(chain: Chain, block: Block): string[] {
  const prev = block.height === chain.genesisBlock.height ? undefined : chain.blockByHeight(block.height - 1);
  const keys: string[] = [];
  block.postState.forEach((after, i) => {
    const before = prev?.postState[i];
    if (before !== undefined && Buffer.from(before.rootHash).equals(Buffer.from(after.rootHash))) return;
    keys.push(...diffKeys(before === undefined ? [] : entries(before), entries(after)));
  });
  return keys.sort((x, y) => (x < y ? -1 : x > y ? 1 : 0));
}
