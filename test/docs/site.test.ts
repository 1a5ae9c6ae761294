// The generated docs site in a real headless Chromium: every page (guides and reference) renders
// without console errors or failed requests, every internal link and #anchor resolves, the
// client-side search finds guides, methods, request variants and REST routes, from file:// and over
// HTTP; sidebar names never wrap or get cut at 1280 and 390 px, the dark scheme is dark, and
// screenshots of a few pages at both widths are kept in .artifacts/docs-screenshots/.

import { existsSync, mkdirSync, readdirSync, readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { extname, join, relative, resolve, sep } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchChromium, type LaunchedChromium } from "../support/chromium.js";
import { loadGuides } from "../../generators/docs-guides.js";

const docsDir = fileURLToPath(new URL("../../generated/docs/", import.meta.url));
const openrpc = JSON.parse(readFileSync(join(docsDir, "..", "openrpc.json"), "utf8")) as { methods: { name: string }[] };
const openapi = JSON.parse(readFileSync(join(docsDir, "..", "openapi.json"), "utf8")) as {
  paths: Record<string, Record<string, { operationId: string }>>;
};

function listFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? listFiles(join(dir, entry.name)) : [join(dir, entry.name)],
  );
}

const guides = loadGuides(fileURLToPath(new URL("../../docs/", import.meta.url)));
const screenshotsDir = fileURLToPath(new URL("../../.artifacts/docs-screenshots/", import.meta.url));

const pages = listFiles(docsDir)
  .filter((file) => file.endsWith(".html"))
  .map((file) => relative(docsDir, file).split(sep).join("/"))
  .sort();

interface PageFacts {
  ids: Set<string>;
  hrefs: string[];
  problems: string[];
}

/** Opens a URL and records console errors, page errors, failed and non-local requests. */
async function visit(page: Page, url: string): Promise<string[]> {
  const problems: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error" || message.type() === "warning") problems.push(`console ${message.type()}: ${message.text()}`);
  });
  page.on("pageerror", (error) => problems.push(`page error: ${error.message}`));
  page.on("requestfailed", (request) => problems.push(`failed: ${request.url()} ${request.failure()?.errorText ?? ""}`));
  page.on("request", (request) => {
    const origin = new URL(url).origin;
    const target = new URL(request.url());
    if (target.protocol !== "file:" && target.origin !== origin) problems.push(`external request: ${request.url()}`);
  });
  const response = await page.goto(url, { waitUntil: "load" });
  if (response !== null && !response.ok()) problems.push(`status ${response.status()} for ${url}`);
  return problems;
}

let chromium: LaunchedChromium;
const facts = new Map<string, PageFacts>();

beforeAll(async () => {
  chromium = await launchChromium();
  // One tab for all pages: the tab's listeners are per page object, so make a fresh one each time.
  for (const path of pages) {
    const page = await chromium.newPage();
    const problems = await visit(page, pathToFileURL(join(docsDir, path)).href);
    // A string, not a function: the test compiles without the DOM library.
    const found = (await page.evaluate(`({
      ids: [...document.querySelectorAll("[id]")].map((element) => element.id),
      hrefs: [...document.querySelectorAll("a[href]")].map((a) => a.getAttribute("href") ?? ""),
      h1: document.querySelector("h1")?.textContent ?? "",
      mainText: document.querySelector("main")?.textContent?.length ?? 0,
    })`)) as { ids: string[]; hrefs: string[]; h1: string; mainText: number };
    if (found.h1.trim() === "" || found.mainText < 100) problems.push(`renders no content (h1 "${found.h1}")`);
    const duplicates = found.ids.filter((id, i) => found.ids.indexOf(id) !== i);
    if (duplicates.length > 0) problems.push(`duplicate ids: ${[...new Set(duplicates)].join(", ")}`);
    facts.set(path, { ids: new Set(found.ids), hrefs: found.hrefs, problems });
    await page.close();
  }
}, 240_000);

afterAll(async () => {
  await chromium?.close();
});

describe("docs site (generated/docs) in headless Chromium", () => {
  it("has an index, a page per guide, per JSON-RPC method and per REST operation, errors, differences and schemas", () => {
    const methods = openrpc.methods.map((m) => `rpc/${m.name}.html`);
    const routes = Object.values(openapi.paths).flatMap((item) => Object.values(item).map((op) => `rest/${op.operationId}.html`));
    expect(methods.length).toBeGreaterThan(20);
    expect(routes.length).toBeGreaterThan(5);
    expect(guides.length).toBeGreaterThanOrEqual(10);
    const shared = ["index.html", "errors.html", "nearcore-differences.html", "rpc-schemas.html", "rest-schemas.html"];
    expect(pages).toEqual([...guides.map((g) => g.page), ...methods, ...routes, ...shared].sort());
  });

  it("renders every page with no console error, page error, failed or external request", () => {
    const problems = [...facts].flatMap(([path, page]) => page.problems.map((p) => `${path}: ${p}`));
    expect(problems).toEqual([]);
  });

  it("resolves every link to an existing page and element", () => {
    const broken: string[] = [];
    let checked = 0;
    for (const [path, page] of facts) {
      const base = pathToFileURL(join(docsDir, path));
      for (const href of page.hrefs) {
        const target = new URL(href, base);
        if (target.protocol !== "file:") {
          broken.push(`${path}: ${href} leaves the site`);
          continue;
        }
        const file = fileURLToPath(target);
        const inSite = relative(docsDir, file).split(sep).join("/");
        if (!resolve(file).startsWith(resolve(docsDir)) || !existsSync(file)) {
          broken.push(`${path}: ${href} → missing file ${inSite}`);
          continue;
        }
        const fragment = decodeURIComponent(target.hash.slice(1));
        if (extname(file) === ".html" && fragment !== "" && !facts.get(inSite)?.ids.has(fragment)) {
          broken.push(`${path}: ${href} → no element #${fragment} in ${inSite}`);
        }
        checked++;
      }
    }
    expect(broken).toEqual([]);
    expect(checked).toBeGreaterThan(1000);
  });

  it("links every $ref of a method page to its schema section", () => {
    const query = facts.get("rpc/query.html")!;
    expect(query.hrefs).toContain("../rpc-schemas.html#schema-ViewStateResult");
    expect(facts.get("rpc-schemas.html")!.ids).toContain("schema-ViewStateResult");
  });
});

/** Types into the search box of `url`, returns the result titles and clicks the one matching `pick`. */
async function search(url: string, query: string, pick: RegExp): Promise<{ titles: string[]; landed: string; problems: string[] }> {
  const page = await chromium.newPage();
  try {
    const problems = await visit(page, url);
    await page.locator("#search").fill(query);
    const links = page.locator("#search-results a");
    await links.first().waitFor();
    const titles = await links.evaluateAll((as) => as.map((a) => a.firstChild?.textContent ?? ""));
    const target = links.filter({ hasText: pick }).first();
    await Promise.all([page.waitForURL((u) => u.href !== url), target.click()]);
    await page.waitForLoadState("load");
    return { titles, landed: page.url(), problems };
  } finally {
    await page.close();
  }
}

describe("docs search", () => {
  const index = () => pathToFileURL(join(docsDir, "index.html")).href;

  it("finds a guide by its title and a guide section by its heading", async () => {
    const guide = await search(index(), "transactions and receipts", /^Transactions and receipts/);
    expect(guide.titles[0]).toBe("Transactions and receipts");
    expect(guide.landed).toBe(pathToFileURL(join(docsDir, "guides/transactions.html")).href);
    const section = await search(pathToFileURL(join(docsDir, "rpc/query.html")).href, "receipt flow", /^Receipt flow across shards/);
    expect(section.landed).toBe(pathToFileURL(join(docsDir, "guides/transactions.html")).href + "#receipt-flow-across-shards");
    expect([...guide.problems, ...section.problems]).toEqual([]);
  });

  it("finds a query request variant by its request_type and navigates to it", async () => {
    const { titles, landed, problems } = await search(index(), "view_state", /^query view_state/);
    expect(titles[0]).toBe("query view_state");
    expect(landed).toBe(pathToFileURL(join(docsDir, "rpc/query.html")).href + "#variant-view_state");
    expect(problems).toEqual([]);
  });

  it("finds a method by its exact name first", async () => {
    const { titles, landed } = await search(index(), "EXPERIMENTAL_changes_in_block", /^EXPERIMENTAL_changes_in_block/);
    expect(titles[0]).toBe("EXPERIMENTAL_changes_in_block");
    expect(landed).toBe(pathToFileURL(join(docsDir, "rpc/EXPERIMENTAL_changes_in_block.html")).href);
  });

  it("finds a REST route by path or operationId, also from a page one folder down", async () => {
    const byPath = await search(index(), "/v1/account/{account_id}/full", /^GET \/v1\/account\/\{account_id\}\/full/);
    expect(byPath.titles).toContain("GET /v1/account/{account_id}/full");
    expect(byPath.landed).toBe(pathToFileURL(join(docsDir, "rest/accountFull.html")).href);
    const fromMethod = await search(pathToFileURL(join(docsDir, "rpc/block.html")).href, "ftTop", /^GET \/v1\/ft/);
    expect(fromMethod.landed).toBe(pathToFileURL(join(docsDir, "rest/ftTop.html")).href);
  });

  it("moves through results with the arrow keys and opens one with Enter", async () => {
    const page = await chromium.newPage();
    try {
      expect(await visit(page, index())).toEqual([]);
      await page.locator("#search").fill("block");
      await page.locator("#search-results a").first().waitFor();
      await page.keyboard.press("ArrowDown");
      await page.keyboard.press("ArrowDown");
      const second = await page.locator("#search-results a").nth(1).getAttribute("href");
      await Promise.all([page.waitForURL((u) => u.href !== index()), page.keyboard.press("Enter")]);
      expect(page.url()).toBe(new URL(second!, index()).href);
    } finally {
      await page.close();
    }
  });

  it("says when nothing matches", async () => {
    const page = await chromium.newPage();
    try {
      await visit(page, index());
      await page.locator("#search").fill("no such thing anywhere");
      await expect.poll(() => page.locator("#search-results").textContent()).toBe("No match");
    } finally {
      await page.close();
    }
  });
});

describe("docs site served over HTTP", () => {
  let server: Server;
  let origin: string;

  beforeAll(async () => {
    // A plain static server: the site needs nothing but files (relative links, classic scripts).
    server = createServer((req, res) => {
      const path = decodeURIComponent(new URL(req.url ?? "/", "http://x").pathname);
      const file = resolve(docsDir, `.${path === "/" ? "/index.html" : path}`);
      if (!file.startsWith(resolve(docsDir)) || !existsSync(file)) {
        res.writeHead(404).end();
        return;
      }
      const type = file.endsWith(".js") ? "text/javascript" : "text/html; charset=utf-8";
      res.writeHead(200, { "content-type": type }).end(readFileSync(file));
    });
    await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    // Chromium keeps its connections alive: drop them, or close() waits for them.
    server?.closeAllConnections();
    await new Promise((done) => server?.close(done));
  });

  it("searches and navigates the same way", async () => {
    const { landed, problems } = await search(`${origin}/rest/health.html`, "view_state", /^query view_state/);
    expect(landed).toBe(`${origin}/rpc/query.html#variant-view_state`);
    expect(problems).toEqual([]);
  });
});

/** For each sidebar link: its text, whether it wraps (more than one line box) or is cut (wider than its box). */
const SIDEBAR_NAMES = `[...document.querySelectorAll(".nav-groups a")].map((a) => {
  const label = a.querySelector("code") ?? a;
  return {
    text: a.textContent.trim(),
    lines: label.getClientRects().length,
    cut: a.scrollWidth > a.clientWidth + 1,
    visible: a.getClientRects().length > 0,
  };
})`;

describe("docs layout at desktop and phone widths", () => {
  const shots = ["index.html", "guides/dev-chain.html", "rpc/EXPERIMENTAL_light_client_block_proof.html", "rpc/query.html"];

  beforeAll(() => {
    mkdirSync(screenshotsDir, { recursive: true });
  });

  it.each([
    [1280, 900],
    [390, 844],
  ])("at %i px every sidebar name is on one line and whole, no page scrolls sideways, and screenshots are kept", async (width, height) => {
    const page = await chromium.newPage();
    try {
      await page.setViewportSize({ width, height });
      for (const path of shots) {
        expect(await visit(page, pathToFileURL(join(docsDir, path)).href)).toEqual([]);
        if (width < 700) {
          // On a phone the navigation sits behind the menu button.
          expect(await page.locator(".nav-groups").isVisible()).toBe(false);
          await page.locator("#menu-toggle").click();
          expect(await page.locator("#menu-toggle").getAttribute("aria-expanded")).toBe("true");
        } else {
          expect(await page.locator("#menu-toggle").isVisible()).toBe(false);
        }
        const names = (await page.evaluate(SIDEBAR_NAMES)) as { text: string; lines: number; cut: boolean; visible: boolean }[];
        expect(names.length).toBeGreaterThan(openrpc.methods.length);
        expect(names.filter((n) => !n.visible).map((n) => n.text)).toEqual([]);
        expect(names.filter((n) => n.lines !== 1 || n.cut).map((n) => n.text)).toEqual([]);
        const overflow = (await page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")) as number;
        expect(overflow, `${path} scrolls sideways at ${width} px`).toBeLessThanOrEqual(0);
        if (width < 700) await page.locator("#menu-toggle").click();
        await page.screenshot({ path: join(screenshotsDir, `${width}-${path.replace(/\//g, "_").replace(/\.html$/, "")}.png`) });
      }
    } finally {
      await page.close();
    }
  }, 60_000);

  it("at 390 px no page of the site scrolls sideways (wide tables and code scroll in their own box)", async () => {
    const page = await chromium.newPage();
    try {
      await page.setViewportSize({ width: 390, height: 844 });
      const wide: string[] = [];
      for (const path of pages) {
        await page.goto(pathToFileURL(join(docsDir, path)).href, { waitUntil: "load" });
        const overflow = (await page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")) as number;
        if (overflow > 0) wide.push(`${path} (+${overflow} px)`);
      }
      expect(wide).toEqual([]);
    } finally {
      await page.close();
    }
  }, 120_000);

  it("follows the system's dark scheme", async () => {
    const page = await chromium.newPage();
    try {
      const luminance = async (scheme: "light" | "dark") => {
        await page.emulateMedia({ colorScheme: scheme });
        await visit(page, pathToFileURL(join(docsDir, "guides/dev-chain.html")).href);
        const [bg, fg] = (await page.evaluate(
          `[getComputedStyle(document.body).backgroundColor, getComputedStyle(document.body).color]`,
        )) as [string, string];
        const value = (color: string) => {
          const [r, g, b] = color.match(/\d+/g)!.map(Number) as [number, number, number];
          return (0.2126 * r + 0.7152 * g + 0.0722 * b) / 255;
        };
        return { bg: value(bg), fg: value(fg) };
      };
      const light = await luminance("light");
      const dark = await luminance("dark");
      expect(light.bg).toBeGreaterThan(0.9);
      expect(light.fg).toBeLessThan(0.3);
      expect(dark.bg).toBeLessThan(0.15);
      expect(dark.fg).toBeGreaterThan(0.8);
      await page.setViewportSize({ width: 1280, height: 900 });
      await page.screenshot({ path: join(screenshotsDir, "1280-dark-guides_dev-chain.png") });
    } finally {
      await page.close();
    }
  });
});
