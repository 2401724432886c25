import { readdirSync, readFileSync } from 'node:fs';

/** CPU milliseconds (user + system) used so far by the processes `match` picks, read from /proc (0 elsewhere). */
export function cpuMs(match: (commandLine: string, pid: number) => boolean): number {
  let ticks = 0;
  let pids: string[] = [];
  try {
    pids = readdirSync('/proc').filter((entry) => /^\d+$/.test(entry));
  } catch {
    return 0;
  }
  for (const pid of pids) {
    try {
      if (!match(readFileSync(`/proc/${pid}/cmdline`, 'utf8'), Number(pid))) continue;
      const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
      ticks += Number(fields[11]) + Number(fields[12]);
    } catch {
      // the process ended meanwhile
    }
  }
  return ticks * 10;
}
