import { existsSync, readdirSync, readFileSync, statSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Credentials, CredentialStore } from '../src/auth/credentials.js';
import { credentialAccount } from '../src/auth/credentials.js';
import { FileStore } from '../src/auth/file-store.js';
import { KeychainError } from '../src/auth/keychain-store.js';
import { withLock } from '../src/lock-file.js';
import { tryLock } from '../src/os/exclusive-lock.js';
import { profileOf, storePreference, Stores } from '../src/auth/stores.js';
import { tempHome } from './helpers/cli.js';

const creds = (authKey: string): Credentials => ({
  clientId: 'c',
  clientSecret: 'secret',
  authKey,
  scopes: ['read_listing'],
  loggedInAt: 1,
});

function fakeKeychain(behaviour: 'fail' | 'empty'): CredentialStore {
  const fail = async () => {
    throw new KeychainError('the OS keychain is not reachable: test');
  };
  return {
    kind: 'keychain',
    location: 'fake keychain',
    load: behaviour === 'fail' ? fail : async () => null,
    save: fail,
    remove: fail,
    check: fail,
  };
}

describe('credential stores', () => {
  it('names the store account PROFILE@HOST from base_url', () => {
    expect(credentialAccount('cron', 'http://127.0.0.1:4010/v1')).toBe('cron@127.0.0.1:4010');
  });

  it('the file store writes a 0600 file atomically, one record per account, and removes one', async () => {
    const dir = join(tempHome(), 'config');
    const store = new FileStore(dir);
    await store.save('a@h', creds('k1'));
    await store.save('b@h', creds('k2'));
    expect(statSync(store.location).mode & 0o777).toBe(0o600);
    expect(readdirSync(dir).filter((f) => f.endsWith('.tmp'))).toEqual([]);
    expect((await store.load('a@h'))?.authKey).toBe('k1');
    expect(await store.remove('a@h')).toBe(true);
    expect(await store.remove('a@h')).toBe(false);
    expect(await store.load('a@h')).toBeNull();
    expect((await store.load('b@h'))?.authKey).toBe('k2');
  });

  it('a torn credentials file is a clear error, not "not logged in"', async () => {
    const dir = join(tempHome(), 'config');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'credentials.json'), '{"credentials": {', { mode: 0o600 });
    await expect(new FileStore(dir).load('a@h')).rejects.toThrow(/not valid JSON/);
  });

  it('MKT_CREDENTIAL_STORE and --insecure-storage choose the store; an unknown name is exit 2', () => {
    expect(storePreference({})).toBe('auto');
    expect(storePreference({ MKT_CREDENTIAL_STORE: 'file' })).toBe('file');
    expect(storePreference({}, true)).toBe('file');
    expect(() => storePreference({ MKT_CREDENTIAL_STORE: 'vault' })).toThrow(/keychain or file/);
    expect(() => storePreference({ MKT_CREDENTIAL_STORE: 'keychain' }, true)).toThrow(/contradicts/);
  });

  it('looks in the keychain first, then in the chosen file, quietly: the warning is said once, at login', async () => {
    const dir = join(tempHome(), 'config');
    await new FileStore(dir).save('p@h', creds('from-file'));
    const warnings: string[] = [];
    const stores = new Stores('auto', { configDir: dir, warn: (l) => warnings.push(l), keychain: fakeKeychain('fail') });
    const found = await stores.locate('p@h');
    expect(found?.store.kind).toBe('file');
    expect(found?.credentials.authKey).toBe('from-file');
    expect(warnings).toEqual([]);
    stores.forWriting(); // 'auto' writes to the keychain: still nothing said
    expect(warnings).toEqual([]);
    const atLogin = new Stores('file', { configDir: dir, warn: (l) => warnings.push(l) });
    atLogin.forWriting();
    atLogin.forWriting();
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain('plain file');
  });

  it('a file-store user who logged out is not logged in, whatever the keychain says', async () => {
    const dir = join(tempHome(), 'config');
    const file = new FileStore(dir);
    await file.save('p@h', creds('k'));
    await file.save('q@h', creds('k'));
    expect(await file.remove('p@h')).toBe(true);
    const stores = new Stores('auto', { configDir: dir, warn: () => undefined, keychain: fakeKeychain('fail') });
    expect(await stores.locate('p@h')).toBeNull();
    // Another profile never logged out of the file: the keychain's failure is still its answer.
    await expect(stores.locate('r@h')).rejects.toThrow(/keychain is not reachable/);
    // Logging in again to the file clears the mark.
    await file.save('p@h', creds('k2'));
    expect(await file.loggedOut('p@h')).toBe(false);
    expect((await stores.locate('p@h'))?.credentials.authKey).toBe('k2');
  });

  it('an unreachable keychain with nothing in the file is reported as the keychain problem', async () => {
    const stores = new Stores('auto', { configDir: join(tempHome(), 'config'), warn: () => undefined, keychain: fakeKeychain('fail') });
    await expect(stores.locate('p@h')).rejects.toThrow(/keychain is not reachable/);
    const empty = new Stores('auto', { configDir: join(tempHome(), 'config'), warn: () => undefined, keychain: fakeKeychain('empty') });
    expect(await empty.locate('p@h')).toBeNull();
  });
});

describe('the store chosen at login, per profile', () => {
  it("mkt login with no store asked for writes where the profile's last login chose, after logout too, and says so", async () => {
    const dir = join(tempHome(), 'config');
    const file = new FileStore(dir);
    await file.save('p@a:1', creds('k'));
    await file.remember('p', true);
    expect(await file.remove('p@a:1')).toBe(true); // mkt logout
    const said: string[] = [];
    const stores = new Stores('auto', { configDir: dir, warn: (l) => said.push(l), keychain: fakeKeychain('fail') });
    expect((await stores.forLogin('p')).kind).toBe('file');
    expect(said[0]).toBe(
      'mkt: profile p chose the file store at its last login: logging in there again (MKT_CREDENTIAL_STORE=keychain mkt login moves it to the keychain)',
    );
    expect(said[1]).toMatch(/warning: credentials are kept in a plain file/);
    // Another profile chose nothing; a store asked for wins over the choice.
    expect((await stores.forLogin('q')).kind).toBe('keychain');
    const asked = new Stores('keychain', { configDir: dir, warn: () => undefined, keychain: fakeKeychain('fail') });
    expect((await asked.forLogin('p')).kind).toBe('keychain');
    // A torn credentials file is said before any browser work, not taken as "no choice".
    writeFileSync(file.location, '{"credentials": ');
    await expect(stores.forLogin('p')).rejects.toThrow(/is not valid JSON/);
  });

  it('a profile that chose the file reads it at every host and never asks the keychain', async () => {
    const dir = join(tempHome(), 'config');
    const file = new FileStore(dir);
    await file.save('p@a:1', creds('k'));
    const stores = new Stores('auto', { configDir: dir, warn: () => undefined, keychain: fakeKeychain('fail') });
    // Without the choice recorded, a host the file does not hold gets the keychain's failure (as before).
    await expect(stores.locate('p@b:2')).rejects.toThrow(/keychain is not reachable/);
    await file.remember('p', true);
    expect(await stores.locate('p@b:2')).toBeNull();
    expect((await stores.locate('p@a:1'))?.credentials.authKey).toBe('k');
    // Another profile chose nothing: the keychain is still its store.
    await expect(stores.locate('q@b:2')).rejects.toThrow(/keychain is not reachable/);
    // Choosing the keychain again forgets the file choice; a keychain user gets no file written for it.
    await file.remember('p', false);
    expect(await file.chosenBy('p')).toBe(false);
    const keychainOnly = new FileStore(join(tempHome(), 'config'));
    await keychainOnly.remember('p', false);
    expect(existsSync(keychainOnly.location)).toBe(false);
  });

  it('profileOf takes the profile out of PROFILE@HOST', () => {
    fc.assert(
      fc.property(fc.string(), fc.domain(), fc.integer({ min: 1, max: 65535 }), (profile, host, port) => {
        expect(profileOf(credentialAccount(profile, `http://${host}:${port}/v1`))).toBe(profile);
      }),
    );
  });
});

describe('the profile lock', () => {
  it('lets one holder in at a time', async () => {
    const path = join(tempHome(), 'state', 'default', 'credentials.lock');
    let inside = 0;
    let most = 0;
    await Promise.all(
      Array.from({ length: 6 }, () =>
        withLock(path, async () => {
          inside++;
          most = Math.max(most, inside);
          await new Promise((r) => setTimeout(r, 15));
          inside--;
        }),
      ),
    );
    expect(most).toBe(1);
    // The kernel's lock: the file stays (removing it is how two holders came about), cleared of its holder.
    expect(readFileSync(path, 'utf8')).toBe('');
  });

  it('takes a lock left behind by a process that died: the kernel let it go with the process', async () => {
    const path = join(tempHome(), 'state', 'p', 'credentials.lock');
    mkdirSync(join(path, '..'), { recursive: true });
    writeFileSync(path, `999999999\n${Date.now()}\n`);
    expect(await withLock(path, async () => 'ran', { timeoutMs: 2000 })).toBe('ran');
  });

  it('gives up with a clear error when a live holder keeps the lock, whatever its age', async () => {
    const path = join(tempHome(), 'state', 'p', 'credentials.lock');
    mkdirSync(join(path, '..'), { recursive: true });
    const held = tryLock(path, () => Date.now() - 3_600_000);
    if (!held.held) throw new Error('the lock should be free');
    try {
      await expect(withLock(path, async () => 'ran', { timeoutMs: 100 })).rejects.toThrow(/another mkt process holds/);
      expect(readFileSync(path, 'utf8')).toContain(String(process.pid));
    } finally {
      held.lock.release();
    }
  });
});

describe('switching stores between logins', () => {
  it('the newer login wins when both the keychain and the file hold the profile', async () => {
    const dir = join(tempHome(), 'config');
    await new FileStore(dir).save('p@h', { ...creds('file-key'), loggedInAt: 200 });
    const keychain = (loggedInAt: number): CredentialStore => ({
      kind: 'keychain',
      location: 'fake',
      load: async () => ({ ...creds('keychain-key'), loggedInAt }),
      save: async () => undefined,
      remove: async () => true,
      check: async () => undefined,
    });
    const newerFile = new Stores('auto', { configDir: dir, warn: () => undefined, keychain: keychain(100) });
    expect((await newerFile.locate('p@h'))?.credentials.authKey).toBe('file-key');
    const newerKeychain = new Stores('auto', { configDir: dir, warn: () => undefined, keychain: keychain(300) });
    expect((await newerKeychain.locate('p@h'))?.credentials.authKey).toBe('keychain-key');
  });
});
