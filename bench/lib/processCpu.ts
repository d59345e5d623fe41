/** Another process's CPU time, read from /proc: for a server a row's clients load. */
import * as fs from 'node:fs';

/** utime + stime of a process, in ms (Linux); NaN elsewhere. */
export function processCpuMs(pid: number): number {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // Fields 14 and 15 of stat(5), counted after the command name; clock ticks are 100 a second on Linux.
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return NaN;
  }
}
