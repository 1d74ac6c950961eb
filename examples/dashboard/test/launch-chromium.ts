import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

/** Debian's Chromium: playwright cannot download a browser here (scripts/ensure-chromium.mjs installs it). */
export const CHROMIUM = '/usr/bin/chromium';

/**
 * Launches Debian's Chromium headless through playwright-core, with the flags every browser test
 * here uses (no GPU, QUIC, background networking or updates; `--no-sandbox` since tests may run as
 * root in a container). Throws, saying what to install, when the browser is missing.
 */
export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(`Chromium not found at ${CHROMIUM}: install Debian's chromium package (apt-get install chromium)`);
  }
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}
