// tsm hook [event]: the Claude Code hook handler (SPEC §6). Reads one JSON object on stdin, prints at
// most one JSON object, exits 0 (or 1 for unusable stdin) — never 2, which would erase the user's prompt.
import { DETACHED_ENV, PAYLOAD_ENV, spawnDetachedHook } from '../hooks/detach.js';
import { handleHook } from '../hooks/dispatch.js';
import { readStdin, writeErr, writeOut } from './stdio.js';

export async function run(argv: Record<string, unknown>): Promise<void> {
  const env = process.env;
  let outcome;
  try {
    const detachedPayload = env[DETACHED_ENV] === '1' ? env[PAYLOAD_ENV] : undefined;
    outcome = await handleHook({
      stdin: detachedPayload ?? (await readStdin()),
      eventArg: typeof argv.event === 'string' ? argv.event : undefined,
      vaultFlag: typeof argv.vault === 'string' ? argv.vault : undefined,
      dbFlag: typeof argv.db === 'string' ? argv.db : undefined,
      env,
      cwd: process.cwd(),
      detach: (req) => {
        spawnDetachedHook({ ...req, execPath: process.execPath, script: process.argv[1], env, cwd: process.cwd() });
      },
    });
  } catch (err) {
    // handleHook already fails open; this is the last guard, so even a bug here cannot block a prompt.
    outcome = { stdout: '', stderr: `tsm hook: ${(err as Error)?.stack ?? String(err)}\n`, exitCode: 0 as const };
  }
  if (outcome.stdout) writeOut(outcome.stdout);
  if (outcome.stderr) writeErr(outcome.stderr);
  process.exitCode = outcome.exitCode;
}
