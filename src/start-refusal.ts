/** A start refused for a reason the operator can fix (a busy port, a bad setting): printed as its one sentence, no stack. */
export class StartRefusal extends Error {}
