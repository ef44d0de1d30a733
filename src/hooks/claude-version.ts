// The version of the Claude Code a user runs (`claude --version` on their PATH): `tsm init --claude` wires
// the prompt hook for it, `tsm doctor` checks the wiring against it. Never on a hook's path.
import { spawnSync } from 'node:child_process';

/** `claude --version` (x.y.z) with `env`'s PATH, or null when there is no `claude` or it does not answer. */
export function claudeCodeVersion(env: NodeJS.ProcessEnv = process.env): string | null {
  // 2.1's native binary answers in ~50 ms, 2.0's Node CLI in ~300 ms; 15 s covers a cold disk.
  const r = spawnSync('claude', ['--version'], { encoding: 'utf8', timeout: 15_000, env, shell: process.platform === 'win32', stdio: ['ignore', 'pipe', 'ignore'] });
  const m = r.status === 0 ? /^\s*(\d+\.\d+\.\d+)/.exec(r.stdout ?? '') : null;
  return m ? m[1] : null;
}
