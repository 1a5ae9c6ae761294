/**
 * The canonical byte encoding of state trie nodes. A node's hash is sha256 of exactly these
 * bytes, and a state proof is a list of these encodings, so the chain (encoder) and the
 * client (decoder) share this one definition. All integers are little-endian.
 *
 *   leaf       0x00 ‖ u32 nibble count ‖ packed path ‖ u32 value length ‖ value
 *   extension  0x01 ‖ u32 nibble count ‖ packed path ‖ child hash (32)
 *   branch     0x02 ‖ u16 child mask ‖ child hash (32) per set bit, low nibble first
 *              ‖ 0x00  (no value)  |  0x01 ‖ u32 value length ‖ value
 *
 * A packed path holds two nibbles per byte, high half first; an odd count leaves the low
 * half of the last byte zero. The empty trie has no node: its root is 32 zero bytes.
 */
export const TrieNodeTag = { LEAF: 0, EXTENSION: 1, BRANCH: 2 } as const;

/** Length of a node hash (sha256). */
export const TRIE_HASH_LEN = 32;
