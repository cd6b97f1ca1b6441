/**
 * A mistake in the command line (exit 2). It names the command it concerns, so the message can end
 * with that command's help hint instead of the whole usage text.
 */
export class UsageError extends Error {
  /** The command the mistake is about (`"tools call"`), when known. */
  readonly command: string | undefined;

  constructor(message: string, command?: string) {
    super(message);
    this.name = "UsageError";
    this.command = command;
  }
}

/** A fault that is not a usage mistake: a folder or file named on the command line is not there (exit 1). */
export class CliError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "CliError";
  }
}
