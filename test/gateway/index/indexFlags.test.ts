// `shardkit gateway --index --postgres URL [--index-from HEIGHT]`: the flags are checked before
// anything starts, and a database that cannot be reached is named clearly.

import { describe, expect, it } from "vitest";
import { UsageError } from "../../../src/cli/flags.js";
import { gatewayOptionsFrom } from "../../../src/cli/gatewayCommand.js";
import { runCli } from "../../cli/cliProcess.js";

const upstream = ["http://127.0.0.1:3030"];

describe("gateway index flags", () => {
  it("need each other and a postgres:// URL", () => {
    expect(() => gatewayOptionsFrom({ upstream, index: true })).toThrow(/--index needs --postgres URL/);
    expect(() => gatewayOptionsFrom({ upstream, postgres: "postgres://db/x" })).toThrow(/add --index/);
    expect(() => gatewayOptionsFrom({ upstream, index: true, postgres: "mysql://db/x" })).toThrow(UsageError);
    expect(() => gatewayOptionsFrom({ upstream, "index-from": "5" })).toThrow(/--index-from needs --index/);
    expect(() => gatewayOptionsFrom({ upstream, index: true, postgres: "postgres://db/x", "index-from": "-1" })).toThrow(/--index-from must be an integer/);
    expect(gatewayOptionsFrom({ upstream, index: true, postgres: "postgresql://u@db:5432/x", "index-from": "120" })).toMatchObject({
      postgresUrl: "postgresql://u@db:5432/x",
      indexFrom: 120,
    });
  });

  it("exits with a clear message when the database does not answer", async () => {
    const proc = runCli(["gateway", "--upstream", upstream[0]!, "--rpc-port", "0", "--archival-port", "0", "--api-port", "0", "--index", "--postgres", "postgres://postgres:secret@127.0.0.1:1/x"]);
    expect(await proc.exited).toBe(1);
    const { stderr } = proc.output();
    expect(stderr).toMatch(/the PostgreSQL index at postgres:\/\/postgres:\*\*\*@127\.0\.0\.1:1\/x cannot be opened: connect ECONNREFUSED/);
    expect(stderr).not.toContain("secret");
  }, 30_000);
});
