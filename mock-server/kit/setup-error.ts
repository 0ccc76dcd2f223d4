/** Why the mock cannot start with the options it was given (a torn state file, an unknown --auto-approve user). */

/** The mock's options cannot be met: the caller's to fix, not a bug (`mkt mock serve` exits 2 with the message). */
export class MockSetupError extends Error {
  constructor(message: string) {
    super(message);
    this.name = new.target.name;
  }
}

/** The refusal of an option only the mock under Node offers (a file, a socket), by the browser build (its `*.browser.ts` twins). */
export function nodeOnly(option: string): MockSetupError {
  return new MockSetupError(`${option} needs the mock under Node: the browser build keeps its world in memory and has no files`);
}
