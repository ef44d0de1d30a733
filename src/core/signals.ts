// The signals that stop a long-running command cleanly (`tsm watch`, `tsm serve`, `tsm index --embed`), how
// each takes them, and the exit code it ends with: one rule for the three (README, "Commands", says it once).
import { constants } from 'node:os';

/**
 * SIGHUP is the terminal closing (a logout, an SSH connection dropped): Node resets it to "terminate" at
 * start-up, even under `nohup`, so without a handler the command died mid-batch.
 */
export const STOP_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

export type StopSignal = (typeof STOP_SIGNALS)[number];

/**
 * The exit code of a command a stop signal ended. Cut short (`tsm index --embed` with sections left to
 * embed, or a second signal that stops a command at once): 128 + the signal's number, as a shell reports a
 * process the signal killed (130 for Ctrl-C), so a script can tell an interrupted run from a finished one.
 * Not cut short: 0. A command that runs until it is stopped (`tsm watch`, `tsm serve`) and finished what it
 * had in hand has ended as it should: MCP clients stop their servers with SIGTERM at every session's end, and
 * 0 keeps a failure out of their logs.
 */
export function stopExitCode(name: NodeJS.Signals, cutShort: boolean): number {
  return cutShort ? 128 + constants.signals[name] : 0;
}

/**
 * Takes the stop signals for a command that finishes what it has in hand first: the first calls `stop`; a
 * second one (the user will not wait) ends the process at once, cut short, after `atOnce` (what must not be
 * left behind, a pid file). Returns what removes the handlers.
 */
export function onStopSignals(stop: (name: NodeJS.Signals) => void, atOnce: (name: NodeJS.Signals) => void = () => {}): () => void {
  let stopping = false;
  const onSignal = (name: NodeJS.Signals) => {
    if (!stopping) {
      stopping = true;
      stop(name);
      return;
    }
    atOnce(name);
    process.exit(stopExitCode(name, true));
  };
  for (const name of STOP_SIGNALS) process.on(name, onSignal);
  return () => {
    for (const name of STOP_SIGNALS) process.off(name, onSignal);
  };
}
