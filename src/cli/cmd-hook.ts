// tsm hook [event]: the Claude Code hook handler (docs/claude-code.md). Reads one JSON object on stdin,
// prints at most one JSON object, exits 0 (or 1 for unusable stdin) — never 2, which would erase the
// user's prompt. main.ts routes every argument list that names `hook`, or carries a payload, here.
import { DETACHED_ENV, detachFromHere, PAYLOAD_ENV } from '../hooks/detach.js';
import { handleHook, type HookOutcome } from '../hooks/dispatch.js';
import { readPayloadWithin } from './hook-args.js';
import { writeErr, writeOut } from './stdio.js';

/** Without a readable $TSM_HOOK_TIMEOUT_MS (the vault's config is not known yet): the default deadline. */
const DEFAULT_TIMEOUT_MS = 1500;
const STDIN_FLOOR_MS = 100;

export async function run(argv: Record<string, unknown>): Promise<void> {
  const env = process.env;
  let outcome: HookOutcome;
  // Stdin still open (its writer never closed it) or work still under way past the deadline: once the
  // answer is written, exit rather than wait for them.
  let exitNow = argv.stdinPending === true;
  try {
    const detachedPayload = env[DETACHED_ENV] === '1' ? env[PAYLOAD_ENV] : undefined;
    let stdin = typeof argv.stdin === 'string' ? argv.stdin : detachedPayload;
    if (stdin === undefined) {
      // A payload comes at once and the pipe closes; a stdin that stays open past the deadline is not
      // Claude Code's, and must not hold the prompt.
      const read = await readPayloadWithin(stdinTimeout(env));
      if (read.text === null && read.pending) {
        writeErr('tsm hook: no payload arrived on stdin before the deadline; nothing done\n');
        // A read still waiting in the thread pool holds even process.exit() (hook-args.ts readPayloadWithin).
        if (read.stuck) process.kill(process.pid, 'SIGKILL');
        process.exit(0);
      }
      stdin = read.text ?? '';
      exitNow ||= read.pending;
    }
    const ignored = Array.isArray(argv.ignored) ? (argv.ignored as string[]) : [];
    outcome = await handleHook({
      stdin,
      eventArg: typeof argv.event === 'string' ? argv.event : undefined,
      vaultFlag: typeof argv.vault === 'string' ? argv.vault : undefined,
      dbFlag: typeof argv.db === 'string' ? argv.db : undefined,
      argWarning: ignored.length ? `ignored arguments: ${ignored.map((a) => JSON.stringify(a)).join(' ')}` : undefined,
      env,
      cwd: process.cwd(),
      detach: detachFromHere(env, process.cwd()),
    });
    exitNow ||= outcome.timedOut === true;
  } catch (err) {
    // handleHook already fails open; this is the last guard, so even a bug here cannot block a prompt.
    outcome = { stdout: '', stderr: `tsm hook: ${(err as Error)?.stack ?? String(err)}\n`, exitCode: 0 };
  }
  if (outcome.stdout) writeOut(outcome.stdout);
  if (outcome.stderr) writeErr(outcome.stderr);
  process.exitCode = outcome.exitCode;
  if (exitNow) process.exit(outcome.exitCode);
}

/**
 * How long to wait for the payload: what is left of the deadline, but at least STDIN_FLOOR_MS, so that a
 * payload already in the pipe is still read (and a deadline passed during Node's start is logged in the
 * vault's hook.log, which only the payload's cwd can name).
 */
function stdinTimeout(env: NodeJS.ProcessEnv): number {
  const n = Number(env.TSM_HOOK_TIMEOUT_MS);
  const ms = Number.isInteger(n) && n >= 50 ? n : DEFAULT_TIMEOUT_MS;
  return Math.max(STDIN_FLOOR_MS, ms - process.uptime() * 1000);
}
