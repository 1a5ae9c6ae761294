/** Host functions by import name; i64 values arrive and leave as bigint. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type HostFunction = (...args: any[]) => bigint | number | void;
export type HostImports = Record<string, HostFunction>;
