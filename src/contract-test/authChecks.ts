import type { SuiteRunner } from "./SuiteRunner.js";

const UNKNOWN_KEY = "contract-test-unknown-key-0000000000";

/** An empty header value removes the suite's default Authorization header for the request. */
const NO_AUTHORIZATION = { authorization: "" };

/**
 * API keys: the Bearer header and the `?apiKey=` query both work, and an unknown key gets 403
 * text/plain, the same on every listener given.
 */
export async function authChecks(suite: SuiteRunner, apiKey: string, hosts: { name: string; url: string; kind: "rpc" | "rest" }[]): Promise<void> {
  const statusBody = JSON.stringify({ jsonrpc: "2.0", id: "contract-test", method: "status", params: {} });
  for (const host of hosts) {
    const withQuery = (key: string) => (host.kind === "rpc" ? `${host.url}/?apiKey=${encodeURIComponent(key)}` : `${host.url}/status?apiKey=${encodeURIComponent(key)}`);
    const base = host.kind === "rpc" ? host.url : `${host.url}/status`;

    await suite.check("auth", `${host.name}: key as Authorization: Bearer`, async (t) => {
      const reply = await t.send(host.kind === "rpc" ? "POST" : "GET", base, host.kind === "rpc" ? statusBody : undefined, { authorization: `Bearer ${apiKey}` });
      if (reply.status !== 200) t.fail(`HTTP ${reply.status} with a valid key`);
    });
    await suite.check("auth", `${host.name}: key as ?apiKey=`, async (t) => {
      const reply = await t.send(host.kind === "rpc" ? "POST" : "GET", withQuery(apiKey), host.kind === "rpc" ? statusBody : undefined, NO_AUTHORIZATION);
      if (reply.status !== 200) t.fail(`HTTP ${reply.status} with a valid key`);
    });
    for (const [form, url, headers] of [
      ["Bearer", base, { authorization: `Bearer ${UNKNOWN_KEY}` }],
      ["?apiKey=", withQuery(UNKNOWN_KEY), NO_AUTHORIZATION],
    ] as const) {
      await suite.check("auth", `${host.name}: unknown key (${form}) gets 403 text/plain`, async (t) => {
        const reply = await t.send(host.kind === "rpc" ? "POST" : "GET", url, host.kind === "rpc" ? statusBody : undefined, headers);
        if (reply.status !== 403) t.fail(`HTTP ${reply.status} for an unknown key, not 403`);
        if (!reply.contentType?.startsWith("text/plain")) t.fail(`403 with content-type ${reply.contentType ?? "missing"}, not text/plain`);
      });
    }
  }
}
