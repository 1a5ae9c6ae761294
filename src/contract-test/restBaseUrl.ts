/**
 * The REST base URL the route checks append `/v1/...` to: what the user gave, without trailing
 * slashes and without a final `/v1`, so the URL `serve` and `gateway` print (`http://host:3040/v1`)
 * works as well as the bare one.
 */
export function restBaseUrl(url: string): string {
  return url.replace(/\/+$/, "").replace(/\/v1$/, "");
}
