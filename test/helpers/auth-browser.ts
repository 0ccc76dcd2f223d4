/** Launches Debian's chromium headless through playwright-core (never downloads a browser). */
import { chromium, type Browser } from 'playwright-core';
import { CHROMIUM } from './requirements.js';

/** A headless chromium with the network-quiet flags of the brief, and `extraArgs` (such as `--host-resolver-rules=…`). */
export function launchChromium(extraArgs: readonly string[] = []): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      ...extraArgs,
    ],
    timeout: 20_000,
  });
}
