// Headless Chromium from Debian's package (/usr/bin/chromium, `apt-get install chromium`)
// driven by playwright-core, for the tests that need a real browser. A fresh profile each
// launch, and no network traffic of the browser's own (updates, sync, QUIC probes).

import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium, type BrowserContext, type Page } from "playwright-core";

/** Where the browser is: $CHROMIUM_PATH, else Debian's /usr/bin/chromium. */
export const chromiumPath = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

/** True when the browser binary exists (CI installs it in .ci/run). */
export const hasChromium = existsSync(chromiumPath);

export const CHROMIUM_FLAGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
] as const;

export interface LaunchedChromium {
  context: BrowserContext;
  newPage(): Promise<Page>;
  /** Closes the browser and deletes its profile directory. */
  close(): Promise<void>;
}

/**
 * Launches Chromium with a fresh --user-data-dir (playwright passes it from the persistent
 * context's directory) and the flags above.
 */
export async function launchChromium(): Promise<LaunchedChromium> {
  const userDataDir = mkdtempSync(join(tmpdir(), "shardkit-chromium-"));
  try {
    const context = await chromium.launchPersistentContext(userDataDir, {
      executablePath: chromiumPath,
      headless: true,
      chromiumSandbox: false,
      args: [...CHROMIUM_FLAGS],
      timeout: 60_000,
      // CI has no SHELL/TERM/HOME guarantees: hand the browser a minimal, explicit environment.
      env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: userDataDir },
    });
    return {
      context,
      newPage: () => context.newPage(),
      async close() {
        await context.close();
        rmSync(userDataDir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    rmSync(userDataDir, { recursive: true, force: true });
    throw error;
  }
}
