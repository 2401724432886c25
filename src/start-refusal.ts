/** A start refused for a reason the operator can fix (a busy port, a bad setting, a missing database): printed as its message, no stack. */
export class StartRefusal extends Error {}
