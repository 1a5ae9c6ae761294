import { homedir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { preparedContractsDir } from "../../src/cli/preparedContractsDir.js";

describe("where the CLI keeps prepared contracts", () => {
  it("follows SHARDKIT_CACHE_DIR, then XDG_CACHE_HOME, then ~/.cache; an empty SHARDKIT_CACHE_DIR turns it off", () => {
    expect(preparedContractsDir({ SHARDKIT_CACHE_DIR: "/c", XDG_CACHE_HOME: "/x" })).toBe("/c/prepared-contracts");
    expect(preparedContractsDir({ XDG_CACHE_HOME: "/x" })).toBe("/x/shardkit/prepared-contracts");
    expect(preparedContractsDir({ XDG_CACHE_HOME: "" })).toBe(join(homedir(), ".cache", "shardkit", "prepared-contracts"));
    // near-workspaces' debug mode starts the sandbox with nothing but RUST_BACKTRACE: the home comes from the password database.
    expect(preparedContractsDir({ RUST_BACKTRACE: "1" })).toBe(join(homedir(), ".cache", "shardkit", "prepared-contracts"));
    expect(preparedContractsDir({ SHARDKIT_CACHE_DIR: "" })).toBeUndefined();
  });
});
