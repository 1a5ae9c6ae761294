import { readFile } from "node:fs/promises";
import type { IncomingMessage } from "node:http";

/** One entry of the keys file. */
export interface ApiKeyEntry {
  key: string;
  name?: string;
}

/**
 * The set of API keys a deployment accepts, loaded from a JSON keys file:
 * `{"keys":[{"key":"<secret>","name":"<label>"}]}`. A request without a key takes the public
 * path; a request with a key not in this set is refused.
 */
export class ApiKeys {
  private constructor(private readonly keys: ReadonlySet<string>) {}

  static empty(): ApiKeys {
    return new ApiKeys(new Set());
  }

  static async load(file: string): Promise<ApiKeys> {
    let parsed: unknown;
    try {
      parsed = JSON.parse(await readFile(file, "utf8"));
    } catch (error) {
      throw new Error(`cannot read keys file ${file}: ${(error as Error).message}`);
    }
    const entries = (parsed as { keys?: unknown })?.keys;
    if (!Array.isArray(entries)) throw new Error(`keys file ${file} must be an object with a "keys" array`);
    const keys = new Set<string>();
    entries.forEach((entry: unknown, index) => {
      const key = (entry as ApiKeyEntry | null)?.key;
      if (typeof key !== "string" || key.length === 0) {
        throw new Error(`keys file ${file}: keys[${index}].key must be a non-empty string`);
      }
      keys.add(key);
    });
    return new ApiKeys(keys);
  }

  has(key: string): boolean {
    return this.keys.has(key);
  }
}

/** The key a request presents: `Authorization: Bearer <key>` first, else `?apiKey=<key>`. */
export function presentedApiKey(req: IncomingMessage, url: URL): string | undefined {
  const header = req.headers.authorization;
  if (header !== undefined) {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
    // A malformed Authorization header is treated as an unknown key rather than ignored.
    return match?.[1] ?? header;
  }
  return url.searchParams.get("apiKey") ?? undefined;
}
