/** Largest u64 (gas, nonces, heights; also the "read from a register" length marker of the VM). */
export const U64_MAX = (1n << 64n) - 1n;

/** Largest u128 (balances). */
export const U128_MAX = (1n << 128n) - 1n;
