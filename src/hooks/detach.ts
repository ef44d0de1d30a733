// SessionEnd gets about 1.5 s from Claude Code, and ingesting plus indexing can take longer: the hook
// hands the work to a detached `tsm hook` (same payload, via the environment) and returns at once.
import type * as ChildProcess from 'node:child_process';

/** Set in the worker's environment: it does the work instead of detaching again. */
export const DETACHED_ENV = 'TSM_HOOK_DETACHED';
/** The payload for the worker (its stdin is not connected). */
export const PAYLOAD_ENV = 'TSM_HOOK_PAYLOAD';

export interface DetachRequest {
  /** The node binary and the tsm script to run (process.execPath and process.argv[1] in the CLI). */
  execPath: string;
  script: string;
  event: string;
  vault: string;
  db?: string;
  payload: string;
  env: NodeJS.ProcessEnv;
  cwd: string;
}

/**
 * The `detach` of a hook request (src/hooks/dispatch.ts) made in this process: the worker is this process's
 * own tsm script under this node. `tsm hook` and `tsm serve`'s hook_context both use it, so the warm prompt
 * hook starts the same background sync the command hook does (an index an older tsm wrote).
 */
export function detachFromHere(env: NodeJS.ProcessEnv, cwd: string): (req: Pick<DetachRequest, 'event' | 'vault' | 'db' | 'payload'>) => void {
  return (req) => {
    spawnDetachedHook({ ...req, execPath: process.execPath, script: process.argv[1], env, cwd });
  };
}

/** Starts the worker without waiting for it (stdio ignored, own process group, unref'd); returns its pid. */
export function spawnDetachedHook(req: DetachRequest): number | undefined {
  const args = [req.script, 'hook', req.event, '--vault', req.vault, ...(req.db ? ['--db', req.db] : [])];
  // Loaded here, not imported: only SessionEnd detaches, and child_process brings net and dgram with it.
  const { spawn } = process.getBuiltinModule('node:child_process') as typeof ChildProcess;
  const child = spawn(req.execPath, args, {
    cwd: req.cwd,
    env: { ...req.env, [DETACHED_ENV]: '1', [PAYLOAD_ENV]: req.payload },
    detached: true,
    stdio: 'ignore',
    windowsHide: true,
  });
  child.on('error', () => {
    // Nothing to report to: the parent has already answered Claude Code. The worker logs its own problems.
  });
  child.unref();
  return child.pid;
}
