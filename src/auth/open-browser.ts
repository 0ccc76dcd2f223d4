/** Opens a URL in the user's browser without a dependency: `xdg-open`, `open` or `start`, detached; a failure is reported, not thrown. */
import { spawn } from 'node:child_process';

/**
 * A function that tries to open `url` in a browser: calls `failed` with the reason when it cannot, and
 * `opened` once a browser is on its way (the opener ran and did not fail at once).
 */
export type BrowserOpener = (url: string, failed: (reason: string) => void, opened?: () => void) => void;

/**
 * How long an opener that started may run before the browser is taken to be on its way: xdg-open finding
 * no browser exits 3 within this, while one that found a browser may keep running as long as it does.
 */
export const OPENER_SETTLE_MS = 1000;

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
  return (url, failed, opened) => {
    const reason = noBrowserReason(env, platform);
    if (reason) return failed(reason);
    const [cmd, args] = openerCommand(url, platform);
    let settle: NodeJS.Timeout | undefined;
    const fail = (why: string) => {
      clearTimeout(settle);
      failed(why);
    };
    const open = () => {
      clearTimeout(settle);
      opened?.();
    };
    try {
      const child = spawn(cmd, args, { detached: true, stdio: 'ignore' });
      child.on('error', (err: NodeJS.ErrnoException) =>
        fail(err.code === 'ENOENT' ? `${cmd} is not installed` : `${cmd} failed: ${err.message}`),
      );
      child.on('spawn', () => {
        settle = setTimeout(open, OPENER_SETTLE_MS);
        settle.unref();
      });
      // xdg-open exits 3 when it finds no browser; a browser it started keeps running on its own.
      child.on('exit', (code, signal) =>
        code ? fail(`${cmd} exited with status ${code}`) : signal ? fail(`${cmd} was stopped by ${signal}`) : open(),
      );
      child.unref();
    } catch (err) {
      fail(`${cmd} failed: ${(err as Error).message}`);
    }
  };
}
