// The signals that stop a long-running command cleanly (`tsm watch`, `tsm serve`, `tsm index --embed`), and
// the exit code a command cut short by one ends with: 128 + its number, as a shell reports a process the
// signal killed (130 for Ctrl-C), so a script can tell an interrupted run from a finished one.
import { constants } from 'node:os';

/**
 * SIGHUP is the terminal closing (a logout, an SSH connection dropped): Node resets it to "terminate" at
 * start-up, even under `nohup`, so without a handler the command died mid-batch.
 */
export const STOP_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

export type StopSignal = (typeof STOP_SIGNALS)[number];

export function signalExitCode(name: NodeJS.Signals): number {
  return 128 + constants.signals[name];
}
