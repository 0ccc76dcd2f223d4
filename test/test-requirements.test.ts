import { afterEach, describe, expect, it, vi } from 'vitest';
import { missingRequirements, skipUnless } from './helpers/requirements.js';

const present = () => null;

describe('test requirements (chromium, keyring, libsecret, tmux)', () => {
  afterEach(() => vi.restoreAllMocks());

  it('runs the tests when everything is there, on CI or not', () => {
    expect(skipUnless('x', ['chromium', 'tmux'], {}, present)).toBe(false);
    expect(skipUnless('x', ['chromium', 'tmux'], { CI: 'true' }, present)).toBe(false);
  });

  it('off CI a missing requirement skips, with the reason and the package printed once', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    expect(skipUnless('the browser tests', ['chromium'], {}, () => '/usr/bin/chromium is not installed')).toBe(true);
    expect(warn).toHaveBeenCalledTimes(1);
    expect(warn.mock.calls[0]![0]).toBe(
      'skipping the browser tests: chromium: /usr/bin/chromium is not installed (apt install chromium; under CI this is a failure)',
    );
  });

  it('under CI a missing requirement fails loudly, naming it and what installs it', () => {
    expect(() =>
      skipUnless('the keychain tests', ['keyring', 'libsecret'], { CI: 'true', MKT_TEST_PRETEND_MISSING: 'libsecret' }, present),
    ).toThrow(
      'CI is set, so the keychain tests must run, but it needs what this machine lacks: libsecret: pretended missing by MKT_TEST_PRETEND_MISSING (.ci/run installs it: apt install gnome-keyring dbus dbus-daemon libsecret-1-0)',
    );
    // CI=false or 0 is not CI.
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    expect(skipUnless('x', ['tmux'], { CI: 'false', MKT_TEST_PRETEND_MISSING: 'tmux' }, present)).toBe(true);
  });

  it('MKT_TEST_PRETEND_MISSING names only what is asked for, and an unknown name is an error', () => {
    expect(missingRequirements(['tmux', 'chromium'], { MKT_TEST_PRETEND_MISSING: ' chromium ,keyring' }, present)).toEqual([
      'chromium: pretended missing by MKT_TEST_PRETEND_MISSING',
    ]);
    expect(() => missingRequirements(['tmux'], { MKT_TEST_PRETEND_MISSING: 'chrome' }, present)).toThrow("unknown requirement 'chrome'");
  });

  it('the real probes find what this machine has (each answer is a reason or null)', () => {
    for (const r of missingRequirements(['chromium', 'keyring', 'libsecret', 'tmux'], {}))
      expect(r).toMatch(/^(chromium|keyring|libsecret|tmux): \S/);
  });
});
