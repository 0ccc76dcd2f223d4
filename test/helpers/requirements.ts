/**
 * What some test files need from the machine (chromium, a Secret Service, libsecret, tmux), found once
 * per file. Off CI a missing one skips the file with its reason printed once; under CI it fails loudly,
 * since `.ci/run` installs them all. MKT_TEST_PRETEND_MISSING=chromium,keyring,libsecret,tmux makes
 * the detection report them missing, so both paths can be tried on a machine that has everything.
 */
import { accessSync, constants } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';

/** A thing a test file may need from the machine. */
export type Requirement = 'chromium' | 'keyring' | 'libsecret' | 'tmux';

/** The system chromium the CI installs (playwright-core drives it; it never downloads a browser). */
export const CHROMIUM = '/usr/bin/chromium';

type Env = Readonly<Record<string, string | undefined>>;

/** The Debian package that provides each requirement (what `.ci/run` installs). */
export const PACKAGES: Record<Requirement, string> = {
  chromium: 'chromium',
  keyring: 'gnome-keyring dbus dbus-daemon',
  libsecret: 'libsecret-1-0',
  tmux: 'tmux',
};

const ROOT = resolve(import.meta.dirname, '../..');

function onPath(cmd: string): boolean {
  return spawnSync('sh', ['-c', `command -v ${cmd}`], { stdio: 'ignore' }).status === 0;
}

/** Why `req` is not usable on this machine, or null when it is. */
function probe(req: Requirement): string | null {
  switch (req) {
    case 'chromium':
      try {
        accessSync(CHROMIUM, constants.X_OK);
        return null;
      } catch {
        return `${CHROMIUM} is not installed`;
      }
    case 'keyring': {
      const absent = ['dbus-run-session', 'dbus-send', 'gnome-keyring-daemon'].filter((c) => !onPath(c));
      return absent.length ? `${absent.join(', ')} not on PATH` : null;
    }
    case 'libsecret': {
      // Loading the real binding is the one test that cannot be fooled by a library under another name.
      const r = spawnSync(process.execPath, ['-e', "require('@github/keytar')"], { cwd: ROOT, encoding: 'utf8' });
      return r.status === 0
        ? null
        : `the keychain binding does not load (${(r.stderr.match(/\w[^\n]*\.so[^\n]*/)?.[0] ?? r.stderr.trim().split('\n')[0] ?? 'unknown').slice(0, 160)})`;
    }
    case 'tmux':
      return spawnSync('tmux', ['-V'], { stdio: 'ignore' }).status === 0 ? null : 'tmux is not installed';
  }
}

/** The requirements MKT_TEST_PRETEND_MISSING names; an unknown name is an error, not silently ignored. */
export function pretendedMissing(env: Env): Set<Requirement> {
  const names = (env.MKT_TEST_PRETEND_MISSING ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  for (const n of names) {
    if (!(n in PACKAGES))
      throw new Error(`MKT_TEST_PRETEND_MISSING: unknown requirement '${n}' (known: ${Object.keys(PACKAGES).join(', ')})`);
  }
  return new Set(names as Requirement[]);
}

/** True when CI is set to anything but empty, 0 or false (GitHub, GitLab and most runners set CI=true). */
export function isCi(env: Env): boolean {
  const v = env.CI?.trim().toLowerCase();
  return !!v && v !== '0' && v !== 'false';
}

/** The reasons each of `reqs` is missing (empty when all are there). */
export function missingRequirements(
  reqs: Requirement[],
  env: Env = process.env,
  check: (r: Requirement) => string | null = probe,
): string[] {
  const pretend = pretendedMissing(env);
  return reqs.flatMap((r) => {
    const why = pretend.has(r) ? 'pretended missing by MKT_TEST_PRETEND_MISSING' : check(r);
    return why ? [`${r}: ${why}`] : [];
  });
}

/**
 * Whether the tests of `what` should be skipped for want of `reqs`: false when all are there; true, with
 * the reason printed once, when some are missing off CI; under CI a thrown error that names them.
 */
export function skipUnless(what: string, reqs: Requirement[], env: Env = process.env, check?: (r: Requirement) => string | null): boolean {
  const missing = missingRequirements(reqs, env, check);
  if (missing.length === 0) return false;
  const install = `apt install ${[...new Set(reqs.map((r) => PACKAGES[r]))].join(' ')}`;
  if (isCi(env)) {
    throw new Error(
      `CI is set, so ${what} must run, but it needs what this machine lacks: ${missing.join('; ')} (.ci/run installs it: ${install})`,
    );
  }
  console.warn(`skipping ${what}: ${missing.join('; ')} (${install}; under CI this is a failure)`);
  return true;
}
