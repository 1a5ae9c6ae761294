import { describe, expect, it } from "vitest";
import { createLogger, type LogLevel } from "../../src/server/log/Logger.js";
import { pathOnly, rpcDetails } from "../../src/server/log/requestLog.js";

const at = new Date("2026-11-23T12:34:56.789Z");

function capture(level: LogLevel, format: "json" | "pretty") {
  const lines: string[] = [];
  const logger = createLogger({ level, format, write: (line) => lines.push(line), now: () => at });
  return { logger, lines };
}

describe("createLogger", () => {
  it("filters by level: each level writes itself and the more severe ones", () => {
    const written = (level: LogLevel) => {
      const { logger, lines } = capture(level, "json");
      logger.error("e");
      logger.warn("w");
      logger.info("i");
      logger.debug("d");
      return lines.map((line) => (JSON.parse(line) as { msg: string }).msg).join("");
    };
    expect([written("error"), written("warn"), written("info"), written("debug")]).toEqual(["e", "ew", "ewi", "ewid"]);
    expect(capture("info", "json").logger.enabled("debug")).toBe(false);
  });

  it("writes JSON lines: time, level, msg, then the defined fields", () => {
    const { logger, lines } = capture("debug", "json");
    logger.info("receipt", { height: 7, status: "success", logs: ["a b"], error: undefined });
    expect(lines).toEqual(['{"time":"2026-11-23T12:34:56.789Z","level":"info","msg":"receipt","height":7,"status":"success","logs":["a b"]}\n']);
  });

  it("writes readable lines for a terminal, quoting values with spaces", () => {
    const { logger, lines } = capture("debug", "pretty");
    logger.warn("keys file", { message: "bad entry; still serving", count: 2, ok: true });
    expect(lines).toEqual(['12:34:56.789 WARN  keys file message="bad entry; still serving" count=2 ok=true\n']);
  });
});

describe("request log helpers", () => {
  it("drops the query string, where ?apiKey= travels", () => {
    expect(pathOnly("/v1/account/a.near/full?apiKey=shk_secret")).toBe("/v1/account/a.near/full");
    expect(pathOnly("/?apiKey=x")).toBe("/");
    expect(pathOnly(undefined)).toBe("/");
  });

  it("names the JSON-RPC method and the error cause of the reply", () => {
    const body = Buffer.from('{"jsonrpc":"2.0","id":1,"method":"query","params":{}}');
    const error = '{"jsonrpc":"2.0","error":{"name":"HANDLER_ERROR","cause":{"name":"UNKNOWN_ACCOUNT","info":{}},"code":-32000},"id":1}';
    expect(rpcDetails(body, error)).toEqual({ rpc_method: "query", rpc_error: "UNKNOWN_ACCOUNT" });
    expect(rpcDetails(body, '{"jsonrpc":"2.0","result":{},"id":1}')).toEqual({ rpc_method: "query", rpc_error: undefined });
    expect(rpcDetails(Buffer.from("{not json"), '{"jsonrpc":"2.0","error":{"name":"REQUEST_VALIDATION_ERROR","cause":{"name":"PARSE_ERROR"}},"id":null}')).toEqual({
      rpc_method: undefined,
      rpc_error: "PARSE_ERROR",
    });
  });
});
