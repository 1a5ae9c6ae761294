// The guides' Markdown renderer, the guide index and link rules, and the grouping of methods in
// the docs site's sidebar.

import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { loadGuides } from "./docs-guides.js";
import { githubSlug, renderMarkdown } from "./docs-markdown.js";
import { methodGroups } from "./docs-nav.js";

const same = (target: string) => target;

describe("githubSlug", () => {
  it.each([
    ["Dev genesis", "dev-genesis"],
    ["Redis (keys and rate caps)", "redis-keys-and-rate-caps"],
    ["`view_state` paging and proofs", "view_state-paging-and-proofs"],
    ["Client package: `@shardkit/client`", "client-package-shardkitclient"],
    ["Deployment (gateway)", "deployment-gateway"],
  ])("%s → %s", (text, slug) => {
    expect(githubSlug(text.replace(/`/g, ""), new Map())).toBe(slug);
  });

  it("numbers repeats as GitHub does", () => {
    const seen = new Map<string, number>();
    expect(["Logs", "Logs", "Logs"].map((t) => githubSlug(t, seen))).toEqual(["logs", "logs-1", "logs-2"]);
  });
});

describe("renderMarkdown", () => {
  it("renders headings with ids, paragraphs, lists, tables and code, escaping text", () => {
    const { html, title, lead, headings } = renderMarkdown(
      [
        "# Title",
        "",
        "Lead with `a<b>` and **bold** and *em*, and a [link](x.md).",
        "",
        "## Part `one`",
        "",
        "- item",
        "  continued",
        "- <two>",
        "",
        "| a | b |",
        "|---|---|",
        "| `x\\|y` | 1 \\| 2 |",
        "",
        "```ts",
        "const a = 1 < 2;",
        "```",
      ].join("\n"),
      (target) => `/${target}`,
      "t.md",
    );
    expect(title).toBe("Title");
    expect(lead).toBe("Lead with a<b> and bold and em, and a link.");
    expect(headings.map((h) => [h.level, h.id])).toEqual([
      [1, "title"],
      [2, "part-one"],
    ]);
    expect(html).toContain("<code>a&lt;b&gt;</code>");
    expect(html).toContain("<strong>bold</strong> and <em>em</em>");
    expect(html).toContain('<a href="/x.md">link</a>');
    expect(html).toContain("<li>item continued</li>\n<li>&lt;two&gt;</li>");
    expect(html).toContain("<td><code>x|y</code></td><td>1 | 2</td>");
    expect(html).toContain('<pre class="code" data-lang="ts"><code>const a = 1 &lt; 2;</code></pre>');
  });

  it("leaves code spans alone: no links, emphasis or bold inside them", () => {
    const { html } = renderMarkdown("# T\n\n`*a* [b](c) **d**`", () => {
      throw new Error("not a link");
    }, "t.md");
    expect(html).toContain("<code>*a* [b](c) **d**</code>");
  });

  it("refuses a guide without a title and a code block left open, naming the line", () => {
    expect(() => renderMarkdown("Text first.\n\n# Title", same, "t.md")).toThrow(/t\.md: a guide starts with a # heading/);
    expect(() => renderMarkdown("# T\n\n```sh\nls\n", same, "t.md")).toThrow(/t\.md:3: code block never closed/);
  });
});

describe("loadGuides", () => {
  let dir: string | undefined;
  afterEach(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
    dir = undefined;
  });
  const folder = (files: Record<string, string>) => {
    dir = mkdtempSync(join(tmpdir(), "shardkit-guides-"));
    for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
    return dir;
  };

  it("keeps the index's order and rewrites links to guides and into the reference", () => {
    const guides = loadGuides(
      folder({
        "README.md": "# Guides\n\n- [B](b.md): second\n- [A](a.md): first\n",
        "a.md": "# A\n\nSee [b](b.md#part), [the index](README.md) and [block](../generated/docs/rpc/block.html#params).\n",
        "b.md": "# B\n\n## Part\n",
      }),
    );
    expect(guides.map((g) => [g.name, g.page, g.label, g.covers])).toEqual([
      ["b", "guides/b.html", "B", "second"],
      ["a", "guides/a.html", "A", "first"],
    ]);
    expect(guides[1]!.html).toContain('<a href="b.html#part">b</a>, <a href="../index.html#guides">the index</a> and <a href="../rpc/block.html#params">block</a>');
  });

  it("refuses links that would leave the site, and guides the index does not list", () => {
    expect(() => loadGuides(folder({ "README.md": "- [A](a.md): a\n", "a.md": "# A\n\nSee [x](../src/x.ts).\n" }))).toThrow(
      /a\.md:3: link to \.\.\/src\/x\.ts: a guide links to another guide/,
    );
    expect(() => loadGuides(folder({ "README.md": "- [A](a.md): a\n", "a.md": "# A\n", "b.md": "# B\n" }))).toThrow(/does not list b\.md/);
    expect(() => loadGuides(folder({ "README.md": "- [A](a.md): a\n- [C](c.md): c\n", "a.md": "# A\n" }))).toThrow(/lists c\.md, which do not exist/);
  });

  it("finds no guides where there is no index", () => {
    expect(loadGuides(folder({ "a.md": "# A\n" }))).toEqual([]);
  });
});

describe("methodGroups", () => {
  it("puts core groups first, EXPERIMENTAL_* beside their stable names and dev-chain methods apart", () => {
    const groups = methodGroups([
      "EXPERIMENTAL_changes",
      "EXPERIMENTAL_changes_in_block",
      "EXPERIMENTAL_receipt",
      "EXPERIMENTAL_tx_status",
      "block",
      "block_effects",
      "changes",
      "query",
      "sandbox_patch_state",
      "shardkit_revert",
      "tx",
      "brand_new",
      "EXPERIMENTAL_brand_new",
    ]);
    expect(groups.map((g) => g.id)).toEqual(["blocks", "accounts", "transactions", "dev-chain", "other"]);
    expect(groups[0]!.methods).toEqual([
      { name: "block", aliases: [] },
      { name: "block_effects", aliases: ["EXPERIMENTAL_changes_in_block"] },
      { name: "changes", aliases: ["EXPERIMENTAL_changes"] },
    ]);
    expect(groups[2]!.methods).toEqual([
      { name: "tx", aliases: ["EXPERIMENTAL_tx_status"] },
      { name: "EXPERIMENTAL_receipt", aliases: [] },
    ]);
    expect(groups[3]!.methods.map((m) => m.name)).toEqual(["sandbox_patch_state", "shardkit_revert"]);
    expect(groups[4]!.methods).toEqual([{ name: "brand_new", aliases: ["EXPERIMENTAL_brand_new"] }]);
  });
});
