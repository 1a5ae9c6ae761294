import type { HttpExchange } from "./httpExchange.js";

/** Headers whose values are secrets: the curl line names an environment variable instead. */
const SECRET_HEADERS = new Set(["authorization"]);

const quote = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`;

/** A shell command that repeats the request (API keys replaced by $SHARDKIT_API_KEY). */
export function curlLine(request: Pick<HttpExchange, "method" | "url" | "headers" | "body">): string {
  const url = request.url.replace(/([?&]apiKey=)[^&]*/, "$1$SHARDKIT_API_KEY");
  const parts = ["curl", "-sS", "-i"];
  if (request.method !== "GET") parts.push("-X", request.method);
  for (const [name, value] of Object.entries(request.headers)) {
    const shown = SECRET_HEADERS.has(name.toLowerCase()) ? value.replace(/\S+$/, "$SHARDKIT_API_KEY") : value;
    parts.push("-H", SECRET_HEADERS.has(name.toLowerCase()) ? `"${name}: ${shown}"` : quote(`${name}: ${shown}`));
  }
  if (request.body !== undefined) parts.push("--data-raw", quote(request.body));
  parts.push(url.includes("$SHARDKIT_API_KEY") ? `"${url}"` : quote(url));
  return parts.join(" ");
}
