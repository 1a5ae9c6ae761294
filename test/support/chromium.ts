// Headless Chromium for browser tests: Debian's /usr/bin/chromium (apt, see .ci/run) driven by
// playwright-core, which ships no browser of its own. Every launch gets a fresh profile and
// no background networking, so a test sees just the requests its page makes.

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium, type BrowserContext, type Page } from "playwright-core";

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

export interface HeadlessChromium {
  context: BrowserContext;
  newPage(): Promise<Page>;
  close(): Promise<void>;
}

export async function launch(): Promise<HeadlessChromium> {
  const profile = mkdtempSync(join(tmpdir(), "shardkit-chromium-"));
  // A persistent context is how playwright takes our own fresh --user-data-dir.
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
    // CI has no SHELL/TERM/HOME guarantees: hand the browser a minimal, explicit environment.
    env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: profile },
  });
  return {
    context,
    newPage: () => context.newPage(),
    close: async () => {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}
