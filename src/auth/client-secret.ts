/**
 * Where `mkt login` gets the client secret: `--client-secret`, else MKT_CLIENT_SECRET, else the one
 * already stored for the same client in this profile, else the demo client's published secret when
 * the client is `mkt-demo` on a loopback marketplace (the bundled mock), else a prompt on a terminal.
 * Without a terminal it fails with exit 2 naming the flag.
 */
import { DEMO_CLIENT } from '../contract/demo-client.js';
import { UsageError } from '../errors.js';

/** What the choice depends on. */
export interface SecretSources {
  flag?: string;
  env: Readonly<Record<string, string | undefined>>;
  clientId: string;
  /** base_url of the profile. */
  baseUrl: string;
  /** The secret already stored for this profile and client, if any. */
  stored?: string;
  interactive: boolean;
  /** Asks the person (only called when interactive). */
  prompt?: (message: string) => Promise<string>;
}

/** True for localhost, 127.x and ::1. */
export function isLoopbackUrl(url: string): boolean {
  try {
    const h = new URL(url).hostname.replace(/^\[|\]$/g, '');
    return h === 'localhost' || /^127\.\d+\.\d+\.\d+$/.test(h) || h === '::1';
  } catch {
    return false;
  }
}

/** The client secret to use, and where it came from (never the secret itself in messages). */
export async function resolveClientSecret(s: SecretSources): Promise<{ secret: string; source: string }> {
  if (s.flag) return { secret: s.flag, source: '--client-secret' };
  if (s.env.MKT_CLIENT_SECRET) return { secret: s.env.MKT_CLIENT_SECRET, source: 'MKT_CLIENT_SECRET' };
  if (s.stored) return { secret: s.stored, source: 'stored credentials' };
  if (s.clientId === DEMO_CLIENT.clientId && isLoopbackUrl(s.baseUrl)) return { secret: DEMO_CLIENT.secret, source: 'demo client default' };
  if (s.interactive && s.prompt) {
    const secret = (await s.prompt(`Client secret for ${s.clientId}`)).trim();
    if (secret) return { secret, source: 'prompt' };
  }
  throw new UsageError(
    `no client secret for client ${s.clientId}`,
    'set MKT_CLIENT_SECRET or pass --client-secret (or run on a terminal to be asked)',
  );
}
