/** One HTTP request the suite made and what came back (or why nothing did). */
export interface HttpExchange {
  readonly method: "GET" | "POST";
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string | undefined;
  /** 0 when no response arrived (timeout, refused connection). */
  readonly status: number;
  readonly contentType: string | null;
  readonly text: string;
  /** The parsed body, or undefined when it is not JSON. */
  readonly json: unknown;
  /** Set when no response arrived in time or the connection failed. */
  readonly transportError: string | undefined;
}

export interface RequestOptions {
  readonly timeoutMs: number;
  readonly headers?: Readonly<Record<string, string>>;
}

/** Sends one request with a deadline: a target that hangs fails the check instead of the run. */
export async function exchange(
  method: "GET" | "POST",
  url: string,
  body: string | undefined,
  options: RequestOptions,
): Promise<HttpExchange> {
  const headers: Record<string, string> = {
    ...(body !== undefined && { "content-type": "application/json" }),
    ...options.headers,
  };
  try {
    const response = await fetch(url, {
      method,
      headers,
      ...(body !== undefined && { body }),
      signal: AbortSignal.timeout(options.timeoutMs),
    });
    const text = await response.text();
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
    const contentType = response.headers.get("content-type");
    return { method, url, headers, body, status: response.status, contentType, text, json, transportError: undefined };
  } catch (error) {
    const reason =
      error instanceof Error && (error.name === "TimeoutError" || error.name === "AbortError")
        ? `no response within ${options.timeoutMs} ms`
        : `request failed: ${error instanceof Error ? (error.cause instanceof Error ? error.cause.message : error.message) : String(error)}`;
    return { method, url, headers, body, status: 0, contentType: null, text: "", json: undefined, transportError: reason };
  }
}
