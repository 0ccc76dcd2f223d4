/** Removing a profile's credentials from every store the user's choice allows. */
import { FileStore } from './file-store.js';
import { KeychainError } from './keychain-store.js';
import type { AuthSession } from './session.js';

/** Removes the session's account from the keychain and the file; returns the store kinds it was removed from. */
export async function removeEverywhere(session: AuthSession): Promise<string[]> {
  const removed: string[] = [];
  const pref = session.stores.preference;
  const file = new FileStore(session.deps.settings.configDir);
  // A profile whose login chose the file: a keychain that cannot answer (cron, no binding) is not its problem.
  const fileChosen = pref === 'auto' && (await file.chosenBy(session.deps.settings.profile));
  let failure: KeychainError | undefined;
  if (pref !== 'file') {
    try {
      if (await session.stores.keychain().remove(session.account)) removed.push('keychain');
    } catch (err) {
      if (!(err instanceof KeychainError) || pref === 'keychain') throw err;
      failure = err;
    }
  }
  if (pref !== 'keychain') {
    // The file is looked at without the warning: removing from it stores nothing.
    if (await file.remove(session.account)) removed.push('file');
  }
  if (failure && removed.length === 0 && !fileChosen) throw failure;
  return removed;
}
