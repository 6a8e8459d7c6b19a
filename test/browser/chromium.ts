// Debian's Chromium driven by playwright-core: the system binary (no browser download), a fresh
// profile per run, nothing reaching out to the network by itself. Console errors and uncaught
// page errors are collected per page, so a test can say there were none.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export interface Browser {
  readonly context: BrowserContext;
  /** A new page whose console errors and page errors land in `errors`. */
  page(viewport?: { width: number; height: number }): Promise<{ page: Page; errors: string[] }>;
  close(): Promise<void>;
}

export async function launchChromium(): Promise<Browser> {
  const profile = await mkdtemp(join(tmpdir(), 'evgen-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: ARGS,
  });
  return {
    context,
    async page(viewport = { width: 1280, height: 900 }) {
      const page = await context.newPage();
      await page.setViewportSize(viewport);
      const errors: string[] = [];
      page.on('console', (m) => {
        if (m.type() === 'error') errors.push(m.text());
      });
      page.on('pageerror', (e) => errors.push(`uncaught: ${e.message}`));
      return { page, errors };
    },
    async close() {
      await context.close();
      await rm(profile, { recursive: true, force: true });
    },
  };
}
