import type { ChildProcess } from 'node:child_process';
import { nextMessage } from './children';
import type { Runner, Sample } from './load';

type Command = { warm: number } | { run: number } | { stop: true };

/** The parent's side: a Runner whose runs happen in `child` (a process with `serveRuns`). */
export function childRunner(child: ChildProcess): Runner & { stop(): Promise<unknown> } {
  const ask = async (command: Command, seconds: number) => {
    const answer = nextMessage(child, (m) => (m as { sample?: Sample }).sample, (seconds + 60) * 1000);
    child.send(command);
    return answer;
  };
  return {
    warm: async (seconds) => void (await ask({ warm: seconds }, seconds)),
    run: (seconds) => ask({ run: seconds }, seconds),
    /** Asks the child to finish; resolves with what its `close` returned. */
    async stop() {
      if (child.exitCode !== null) return undefined;
      const final = nextMessage(child, (m) => (m as { final?: { value: unknown } }).final, 60_000);
      child.send({ stop: true });
      return (await final).value;
    },
  };
}

/** The child's side: answers warm/run commands one at a time with `run`'s sample; `stop` closes, sends what `close` returns, and exits. */
export function serveRuns(run: (seconds: number) => Promise<Sample>, close: () => Promise<unknown>) {
  process.on('message', (command: Command) => {
    if ('stop' in command) {
      void close().then((value) => process.send!({ final: { value } }, undefined, {}, () => process.exit(0)));
      return;
    }
    const seconds = 'warm' in command ? command.warm : command.run;
    run(seconds).then(
      (sample) => process.send!({ sample: 'warm' in command ? { ...sample, latencies: [] } : sample }),
      (error) => {
        process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
        process.exit(1);
      },
    );
  });
  // Bounded lifetime: a child whose parent is gone stops too.
  process.on('disconnect', () => process.exit(0));
  process.send!({ ready: true });
}
