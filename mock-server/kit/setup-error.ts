/** Why the mock cannot start with the options it was given (a torn state file, an unknown --auto-approve user). */

/** The mock's options cannot be met: the caller's to fix, not a bug (`mkt mock serve` exits 2 with the message). */
export class MockSetupError extends Error {
  constructor(message: string) {
    super(message);
    this.name = new.target.name;
  }
}
