// `shardkit keys` as a real process: the key is printed once on the last line, the file holds
// only its hash, list never shows it, rotate/revoke change the file, bad input exits 1.

import { spawnSync } from "node:child_process";
import { mkdtemp, readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { hashApiKey } from "../../src/server/http/keyRing.js";
import { cliNodeArgs } from "./cliProcess.js";

const run = (...args: string[]) => {
  const r = spawnSync(process.execPath, [...cliNodeArgs, "keys", ...args], { encoding: "utf8" });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr, last: r.stdout.trimEnd().split("\n").at(-1)! };
};

describe("shardkit keys", () => {
  it("adds, lists, rotates and revokes keys; the file stores hashes only", async () => {
    const file = join(await mkdtemp(join(tmpdir(), "shardkit-keys-cli-")), "keys.json");
    const added = run("add", "--file", file, "--name", "web", "--browser", "--origin", "https://app.example.com", "--origin", "*.example.org", "--rate", "120");
    expect(added.code).toBe(0);
    const key = added.last;
    expect(key).toMatch(/^shk_[A-Za-z0-9_-]{43}$/);
    const stored = JSON.parse(await readFile(file, "utf8"));
    expect(stored).toEqual({
      version: 1,
      keys: [{ name: "web", sha256: hashApiKey(key), kind: "browser", origins: ["https://app.example.com", "*.example.org"], ratePerMinute: 120 }],
    });

    const listed = run("list", "--file", file);
    expect(listed.stdout).toContain("web  browser  rate 120/min  origins https://app.example.com, *.example.org");
    expect(listed.stdout).not.toContain(key);

    const rotated = run("rotate", "--file", file, "--name", "web");
    expect(rotated.code).toBe(0);
    expect(rotated.last).not.toBe(key);
    expect(JSON.parse(await readFile(file, "utf8")).keys[0].sha256).toBe(hashApiKey(rotated.last));

    expect(run("revoke", "--file", file, "--name", "web").code).toBe(0);
    expect(JSON.parse(await readFile(file, "utf8")).keys).toEqual([]);
  });

  it.each([
    [["add", "--name", "x"], /needs --file F/],
    [["add", "--file", "/tmp/shardkit-k.json"], /needs --name N/],
    [["add", "--file", "/tmp/shardkit-k.json", "--name", "x", "--browser"], /needs at least one --origin/],
    [["add", "--file", "/tmp/shardkit-k.json", "--name", "x", "--browser", "--origin", "ftp//nope"], /must be a URL origin/],
    [["add", "--file", "/tmp/shardkit-k.json", "--name", "x", "--rate", "0"], /--rate must be a positive integer/],
    [["revoke", "--file", "/tmp/shardkit-k-none.json", "--name", "ghost"], /no key named "ghost"/],
    [["frob", "--file", "/tmp/shardkit-k.json"], /unknown keys action "frob"/],
  ])("refuses %j with a clear message and exit code 1", (args, message) => {
    const r = run(...args);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(message);
  });
});
