// Whether the process a lock or a build's mark names is the one that took it. A pid is reused once its
// process is gone (a hook killed at Claude Code's 30 s limit, a crash, a reboot); by the pid alone, such a
// lock was taken for held until its stale limit (120 s for a transcript's, 6 h for the sync lock) and such a
// build for running until the next rebuild. Where /proc shows it (Linux), a process that started after the
// lock was taken is not its holder. The lock itself still holds the bare pid, as older tsm wrote and read
// it: a `PID START` record (tried first) was read by an older tsm as a lock without a pid, and taken over
// after 2 s while its holder ran.
import { readFileSync } from 'node:fs';

/**
 * How much later than the lock a process may seem to start and still be its holder: /proc/stat's boot time
 * is whole seconds, and the clock may be stepped a little between the two readings. A pid reused within
 * this time of the lock is taken for the holder, as before.
 */
const SLACK_MS = 5_000;
/** /proc's clock ticks per second (USER_HZ, 100 on every Linux architecture Node runs on). */
const TICKS_PER_S = 100;

/** The pid a lock's text names (older tsm wrote the same), or null when it names none (empty, garbled). */
export function lockPid(text: string): number | null {
  const pid = Number(text.trim());
  return Number.isInteger(pid) && pid > 0 ? pid : null;
}

/**
 * Whether `pid` is the live process that took a lock at `takenAtMs` (epoch ms; null: unknown): its pid lives
 * (another user's counts) and, where /proc tells, it started no later than the lock was taken.
 */
export function holderRuns(pid: number, takenAtMs: number | null): boolean {
  try {
    process.kill(pid, 0);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  const started = takenAtMs === null ? null : startedAtMs(pid);
  return started === null || started <= (takenAtMs as number) + SLACK_MS;
}

let bootMs: number | null | undefined;

/** When `pid` started (epoch ms, from /proc), or null where /proc does not tell. */
function startedAtMs(pid: number): number | null {
  bootMs ??= bootTimeMs();
  if (bootMs === null) return null;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Field 22 (start time, in ticks since boot); the name (field 2) may hold spaces and ')'.
    const ticks = stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
    return ticks !== undefined && /^\d+$/.test(ticks) ? bootMs + (Number(ticks) * 1000) / TICKS_PER_S : null;
  } catch {
    return null;
  }
}

function bootTimeMs(): number | null {
  try {
    const m = /^btime (\d+)$/m.exec(readFileSync('/proc/stat', 'utf8'));
    return m ? Number(m[1]) * 1000 : null;
  } catch {
    return null;
  }
}
