/** Opens a URL in the user's browser without a dependency: `xdg-open`, `open` or `start`, detached; a failure is reported, not thrown. */
import { spawn } from 'node:child_process';

/** A function that tries to open `url` in a browser and calls `failed` with the reason when it cannot. */
export type BrowserOpener = (url: string, failed: (reason: string) => void) => void;

type Env = Readonly<Record<string, string | undefined>>;

/** The platform's opener command for `url`. */
export function openerCommand(url: string, platform: NodeJS.Platform = process.platform): [string, string[]] {
  if (platform === 'darwin') return ['open', [url]];
  if (platform === 'win32') return ['cmd', ['/c', 'start', '""', url.replace(/&/g, '^&')]];
  return ['xdg-open', [url]];
}

/**
 * Why no browser can be opened before trying, or null: on Linux and the BSDs without DISPLAY,
 * WAYLAND_DISPLAY or BROWSER (an SSH session, a container) xdg-open has no browser to show, or starts a
 * text one with no terminal to draw in.
 */
export function noBrowserReason(env: Env, platform: NodeJS.Platform = process.platform): string | null {
  if (platform === 'darwin' || platform === 'win32') return null;
  return env.DISPLAY || env.WAYLAND_DISPLAY || env.BROWSER ? null : 'no graphical display: DISPLAY and WAYLAND_DISPLAY are not set';
}

/** An opener for this machine: says at once when there is no display, the opener is missing or it fails. */
export function browserOpener(env: Env, platform: NodeJS.Platform = process.platform): BrowserOpener {
  return (url, failed) => {
    const reason = noBrowserReason(env, platform);
    if (reason) return failed(reason);
    const [cmd, args] = openerCommand(url, platform);
    try {
      const child = spawn(cmd, args, { detached: true, stdio: 'ignore' });
      child.on('error', (err: NodeJS.ErrnoException) =>
        failed(err.code === 'ENOENT' ? `${cmd} is not installed` : `${cmd} failed: ${err.message}`),
      );
      // xdg-open exits 3 when it finds no browser; a browser it started keeps running on its own.
      child.on('exit', (code) => (code ? failed(`${cmd} exited with status ${code}`) : undefined));
      child.unref();
    } catch (err) {
      failed(`${cmd} failed: ${(err as Error).message}`);
    }
  };
}
