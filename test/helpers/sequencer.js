const { readFileSync } = require('node:fs');
const Sequencer = require('@jest/test-sequencer').default;

/**
 * Jest starts the files that took longest last time first, so the run ends with every worker busy.
 * A run with no timings yet (a fresh clone, CI) would order by file size and start the files that
 * drive service processes, browsers or oracles (small files, long runs) last, leaving one worker on
 * them for a minute at the end. Those files say so on a line of their own, `// @slow: why`; until
 * jest has timed a file, it is estimated: a minute if marked, else from its size.
 */
const SLOW_MS = 60_000;
const MS_PER_BYTE = 0.5;

class SlowFirstSequencer extends Sequencer {
  time(test) {
    const measured = super.time(test);
    if (measured != null) return measured;
    const source = readFileSync(test.path, 'utf8');
    return /^\/\/ @slow\b/m.test(source) ? SLOW_MS : source.length * MS_PER_BYTE;
  }
}

module.exports = SlowFirstSequencer;
