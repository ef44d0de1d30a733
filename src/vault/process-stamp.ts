// Who holds a lock or a build's mark, told apart from a later process given the same pid. A pid is
// reused once its process is gone (a hook killed at Claude Code's 30 s limit, a crash, a reboot); by the
// pid alone, such a lock was taken for held until its stale limit (120 s for a transcript's, 6 h for the
// sync lock) and such a build for running until the next rebuild. Where /proc shows it (Linux), the stamp
// adds the process's start time (field 22 of /proc/PID/stat, clock ticks since boot): `PID START`.
// Elsewhere it is the pid alone, judged by the pid alone as before.
import { readFileSync } from 'node:fs';

let own: string | undefined;

/** This process's stamp. */
export function ownStamp(): string {
  own ??= [process.pid, startTime(process.pid)].filter((part) => part !== null).join(' ');
  return own;
}

/** The pid a stamp (or a bare pid, as older tsm wrote) names, or null when it names none (empty, garbled). */
export function stampPid(stamp: string): number | null {
  const pid = Number(stamp.trim().split(' ')[0]);
  return Number.isInteger(pid) && pid > 0 ? pid : null;
}

/** Whether the process a stamp names runs: its pid lives (another user's counts) and, where known, started when the stamp says. */
export function stampRuns(stamp: string): boolean {
  const pid = stampPid(stamp);
  if (pid === null) return false;
  try {
    process.kill(pid, 0);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  const recorded = stamp.trim().split(' ')[1];
  const now = recorded === undefined ? null : startTime(pid);
  return now === null || now === recorded;
}

/** Field 22 of /proc/PID/stat, or null where there is none. The name (field 2) may hold spaces and ')'. */
function startTime(pid: number): string | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const start = stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
    return start !== undefined && /^\d+$/.test(start) ? start : null;
  } catch {
    return null;
  }
}
