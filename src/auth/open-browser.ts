/** Opens a URL in the user's browser without a dependency: `xdg-open`, `open` or `start`, detached, errors ignored. */
import { spawn } from 'node:child_process';

/** A function that tries to open `url` in a browser. */
export type BrowserOpener = (url: string) => void;

/** The platform's opener command for `url`. */
export function openerCommand(url: string, platform: NodeJS.Platform = process.platform): [string, string[]] {
  if (platform === 'darwin') return ['open', [url]];
  if (platform === 'win32') return ['cmd', ['/c', 'start', '""', url.replace(/&/g, '^&')]];
  return ['xdg-open', [url]];
}

/** Spawns the opener detached; a missing opener is ignored (the URL is always printed too). */
export const openBrowser: BrowserOpener = (url) => {
  try {
    const [cmd, args] = openerCommand(url);
    const child = spawn(cmd, args, { detached: true, stdio: 'ignore' });
    child.on('error', () => undefined);
    child.unref();
  } catch {
    // Best effort only.
  }
};
