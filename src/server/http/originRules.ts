/**
 * Whether a request origin (`https://app.example.com[:port]`) matches a browser key's rule:
 * an exact origin, or `*.example.com` (any subdomain depth, not the apex; any scheme unless
 * the rule has one, as `https://*.example.com`).
 */
export function originAllowed(origin: string, rules: readonly string[]): boolean {
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false;
  }
  const normalized = url.origin;
  for (const rule of rules) {
    const star = rule.indexOf("*.");
    if (star < 0) {
      if (rule === normalized) return true;
      continue;
    }
    const scheme = star > 0 ? rule.slice(0, star - 3) : undefined;
    if (scheme !== undefined && `${scheme}:` !== url.protocol) continue;
    if (url.hostname.endsWith(rule.slice(star + 1)) && url.hostname.length > rule.length - star - 1) return true;
  }
  return false;
}

/** The origin a request comes from: `Origin`, or the origin of `Referer` as a fallback. */
export function requestOrigin(headers: { origin?: string | undefined; referer?: string | undefined }): string | undefined {
  if (headers.origin !== undefined && headers.origin !== "null") return headers.origin;
  if (headers.referer === undefined) return undefined;
  try {
    return new URL(headers.referer).origin;
  } catch {
    return undefined;
  }
}
