/** A command that failed after computing what it reports: main prints `output`, then `message` on stderr, exit 1. */
export class CommandFailed extends Error {
  constructor(
    message: string,
    readonly output: Record<string, unknown>,
  ) {
    super(message);
  }
}
