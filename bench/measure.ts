// Timing a whole process, with its peak RSS when GNU time is there to report it.
import { existsSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { delimiter, dirname } from 'node:path';

export interface Timed {
  seconds: number;
  peakRssMb: number | null;
  stdout: string;
}

const GNU_TIME = '/usr/bin/time';
const hasGnuTime = existsSync(GNU_TIME);

/**
 * Runs `script` as a command, the way a shell or Claude Code runs `tsm` (its launcher included), with this
 * Node first on PATH so the launcher starts the same Node as the bench.
 */
export function timeRun(script: string, args: string[], env: NodeJS.ProcessEnv, input = ''): Timed {
  const cmd = hasGnuTime ? GNU_TIME : script;
  const argv = hasGnuTime ? ['-f', 'TSMBENCH_RSS_KB=%M', script, ...args] : args;
  const path = `${dirname(process.execPath)}${delimiter}${env.PATH ?? ''}`;
  const t0 = performance.now();
  const r = spawnSync(cmd, argv, { env: { ...env, PATH: path }, input, encoding: 'utf8', maxBuffer: 256 << 20 });
  const seconds = (performance.now() - t0) / 1000;
  if (r.status !== 0) throw new Error(`tsm ${args.join(' ')} exited ${r.status}: ${r.stderr.slice(-800)}`);
  const m = /TSMBENCH_RSS_KB=(\d+)/.exec(r.stderr);
  return { seconds, peakRssMb: m ? Math.round(Number(m[1]) / 1024) : null, stdout: r.stdout };
}

export function percentile(xs: number[], p: number): number {
  if (xs.length === 0) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  const i = Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1));
  return s[i];
}
