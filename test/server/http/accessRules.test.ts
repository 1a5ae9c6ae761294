// Units of the auth hook: keys file parsing (hashes only), origin rules, token buckets.

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { hashApiKey, KeyRing, normalizeOriginRule, parseKeysFile } from "../../../src/server/http/keyRing.js";
import { originAllowed, requestOrigin } from "../../../src/server/http/originRules.js";
import { RateLimiter } from "../../../src/server/http/RateLimiter.js";

describe("keys file", () => {
  it("parses hashed entries and looks keys up by hash", () => {
    const file = parseKeysFile(
      JSON.stringify({
        version: 1,
        keys: [
          { name: "ci", sha256: hashApiKey("secret-1"), kind: "server", origins: [], ratePerMinute: null },
          { name: "web", sha256: hashApiKey("secret-2"), kind: "browser", origins: ["https://App.Example.com:443", "*.Example.org"], ratePerMinute: 60 },
        ],
      }),
    );
    expect(file.keys[1]!.origins).toEqual(["https://app.example.com", "*.example.org"]);
    const ring = new KeyRing(file.keys);
    expect(ring.lookup("secret-1")?.name).toBe("ci");
    expect(ring.lookup("secret-2")?.kind).toBe("browser");
    expect(ring.lookup("secret-3")).toBeUndefined();
  });

  it.each([
    ["not JSON", "{", /not valid JSON/],
    ["no keys array", "{}", /"keys" array/],
    ["a bad hash", '{"keys":[{"name":"a","sha256":"xyz"}]}', /sha256 must be 64/],
    ["a duplicate name", `{"keys":[{"name":"a","key":"k1"},{"name":"a","key":"k2"}]}`, /used twice/],
    ["a browser key without origins", '{"keys":[{"name":"a","key":"k","kind":"browser"}]}', /needs at least one origin/],
    ["a bad origin", '{"keys":[{"name":"a","key":"k","kind":"browser","origins":["https://x.com/path"]}]}', /bare origin/],
    ["a bad rate", '{"keys":[{"name":"a","key":"k","ratePerMinute":0}]}', /positive integer/],
  ])("refuses %s with a message that names the problem", (_name, text, message) => {
    expect(() => parseKeysFile(text)).toThrow(message);
  });

  it("never quotes the file text (which may hold a key) in its errors", () => {
    expect(() => parseKeysFile('{"keys":[{"key":"super-secret-key",}]}')).toThrow(/^not valid JSON$/);
  });
});

describe("origin rules", () => {
  it.each([
    ["https://app.example.com", ["https://app.example.com"], true],
    ["https://app.example.com:8443", ["https://app.example.com"], false],
    ["http://app.example.com", ["https://app.example.com"], false],
    ["https://a.example.com", ["*.example.com"], true],
    ["http://a.b.example.com", ["*.example.com"], true],
    ["https://example.com", ["*.example.com"], false],
    ["https://evilexample.com", ["*.example.com"], false],
    ["https://example.com.evil.io", ["*.example.com"], false],
    ["http://a.example.com", ["https://*.example.com"], false],
    ["https://a.example.com", ["https://*.example.com"], true],
    ["not a url", ["*.example.com"], false],
  ])("%s against %j → %s", (origin, rules, allowed) => {
    expect(originAllowed(origin, rules.map(normalizeOriginRule))).toBe(allowed);
  });

  it("falls back to the Referer's origin", () => {
    expect(requestOrigin({ referer: "https://app.example.com/page?q=1" })).toBe("https://app.example.com");
    expect(requestOrigin({ origin: "https://o.example", referer: "https://r.example/" })).toBe("https://o.example");
    expect(requestOrigin({})).toBeUndefined();
  });
});

describe("RateLimiter", () => {
  it("lets exactly the cap through in a burst, then refills at cap/60 per second", () => {
    let now = 0;
    const limiter = new RateLimiter(() => now);
    const results = Array.from({ length: 15 }, () => limiter.take("k", 10));
    expect(results.filter((wait) => wait === 0)).toHaveLength(10);
    expect(results[10]).toBe(6); // one token every 6 s
    now += 6_000;
    expect(limiter.take("k", 10)).toBe(0);
    expect(limiter.take("k", 10)).toBe(6);
    expect(limiter.take("other", 10)).toBe(0);
  });

  it("never allows more than cap + elapsed refill (property)", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 120 }), fc.array(fc.integer({ min: 0, max: 5_000 }), { maxLength: 200 }), (cap, gaps) => {
        let now = 0;
        const limiter = new RateLimiter(() => now);
        let allowed = 0;
        for (const gap of gaps) {
          now += gap;
          if (limiter.take("k", cap) === 0) allowed++;
        }
        return allowed <= cap + Math.floor((now * cap) / 60_000) + 1e-9;
      }),
    );
  });

  it("drops least recently used buckets that are full again, never one in use", () => {
    let now = 0;
    const limiter = new RateLimiter(() => now, 3);
    for (const client of ["a", "b", "c"]) limiter.take(client, 60);
    now = 500;
    limiter.take("a", 60); // a is now the most recently used
    now = 2_000; // every bucket is full again
    limiter.take("d", 60);
    expect(limiter.tracked).toBe(2); // b and c dropped, a and d kept
    now = 2_100;
    limiter.take("e", 60);
    limiter.take("f", 60); // at the bound again: a (oldest, full) goes, d is still refilling: kept
    expect(limiter.tracked).toBe(3);
    expect(limiter.take("d", 60)).toBe(0);

    const busy = new RateLimiter(() => now, 2);
    busy.take("x", 1);
    busy.take("y", 1);
    busy.take("z", 1); // x and y still empty: kept, the map grows past its bound
    expect(busy.tracked).toBe(3);
    expect(busy.take("x", 1)).toBeGreaterThan(0);
  });

  it("examines O(1) buckets per new client however many are tracked", () => {
    let now = 0;
    const limiter = new RateLimiter(() => now, 1_000);
    let examined = 0;
    class CountingMap<K, V> extends Map<K, V> {
      override *entries(): MapIterator<[K, V]> {
        for (const entry of super.entries()) (examined++, yield entry);
      }
      override [Symbol.iterator](): MapIterator<[K, V]> {
        return this.entries();
      }
    }
    Object.defineProperty(limiter, "buckets", { value: new CountingMap() });
    for (let i = 0; i < 1_000; i++) limiter.take(`busy${i}`, 1);
    examined = 0;
    for (let i = 0; i < 1_000; i++) limiter.take(`new${i}`, 1);
    expect(examined).toBeLessThanOrEqual(2 * 1_000);
    expect(limiter.tracked).toBe(2_000);
  });
});
