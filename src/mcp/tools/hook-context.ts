// hook_context: Claude Code's prompt hook answered by the `tsm serve` that is already running (an
// `"type": "mcp_tool"` hook, Claude Code 2.1.118 and later; docs/claude-code.md). It runs the very code of
// `tsm hook` (handleHook: the skip rules, the vault, the session's own notes left out, the deadline, the
// hook log) and returns what `tsm hook` prints, so the two paths cannot drift apart (with a vault embedding
// model, the one difference: the server's model embeds the prompt for the neural ranker). It never fails: every
// problem, bad arguments included (failOpen), is the empty answer, which lets the prompt through with nothing
// injected (an `isError` result would also let it through, but Claude Code reports it as a hook error).
//
// The empty answer is `{}`, a hook output with no fields, not the empty text: measured on 2.1.118 and
// 2.1.331, an mcp_tool hook that answers '' adds the line "UserPromptSubmit hook success: UserPromptSubmit
// completed" to the model's context on every prompt, `{}` adds nothing. Plain text is not context either
// (unlike a command hook's stdout): only hook JSON is read.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { Deadline } from '../../hooks/deadline.js';
import { handleHook } from '../../hooks/dispatch.js';
import { formatLogLine, writeHookLog } from '../../hooks/hook-log.js';
import { resolveHookVault } from '../../hooks/hook-vault.js';
import { TSM_DIR } from '../../vault/config.js';
import { defineTool, type ToolContext } from '../tool.js';

/**
 * The events this tool answers: the ones whose answer is context and whose work only reads. Stop,
 * PreCompact and SessionEnd write session notes: they stay with the command hook, and `tsm serve` stays
 * read-only. Claude Code runs no mcp_tool hook on SessionStart at start-up ("no MCP client context",
 * measured on 2.1.331; its code makes the same exception for resume, not for /clear or a compaction), so
 * the plugins keep SessionStart a command hook; a SessionStart call is still answered, as `tsm hook` would.
 */
export const HOOK_TOOL_EVENTS = ['UserPromptSubmit', 'SessionStart'] as const;

/** The answer that injects nothing. */
export const NO_CONTEXT = '{}';

/** What `tsm hook` would have written to stderr (only that its log could not be written), as this server's line. */
function serverStderr(text: string): void {
  process.stderr.write(text.replace(/^tsm hook:/gm, 'tsm serve: hook_context:'));
}

/**
 * The vault whose hook.log records this call's problems: the server's own when it holds .tsm/, else the
 * hook's rule from the call's cwd (as run() has handleHook find it); null when there is none.
 */
function hookVault(args: Record<string, unknown>, ctx: ToolContext): string | null {
  const served = existsSync(join(ctx.cfg.vault, TSM_DIR));
  const cwd = typeof args.cwd === 'string' && args.cwd !== '' ? args.cwd : process.cwd();
  try {
    return resolveHookVault({ vaultFlag: served ? ctx.cfg.vault : undefined, env: process.env, cwd, processCwd: process.cwd() });
  } catch {
    return null;
  }
}

export const hookContextTool = defineTool({
  name: 'hook_context',
  title: 'Hook context (for Claude Code hooks)',
  // The prompt hook's own output, redacted as `tsm hook`'s is (prompt-context.ts).
  redactsOwnAnswer: true,
  description: [
    "Claude Code's UserPromptSubmit hook calls this tool (an mcp_tool hook) with the prompt; it returns the",
    '<knowledge_search> block `tsm hook` would inject, as hook JSON, or nothing. You do not need to call it:',
    'to search the vault yourself, use `search`.',
  ].join(' '),
  inputSchema: {
    hook_event_name: z.string().optional().describe('UserPromptSubmit (default) or SessionStart'),
    prompt: z.string().optional().describe("the user's prompt"),
    session_id: z.string().optional().describe('the session: its own session notes are left out'),
    cwd: z.string().optional().describe('the session folder (finds the vault when this server has none)'),
    source: z.string().optional().describe('SessionStart: startup, resume, clear or compact'),
  },
  async run(args, ctx) {
    // The deadline counts from this call, as the command hook's counts from its process start.
    const deadline = new Deadline(ctx.cfg.hookTimeoutMs, process.uptime() * 1000);
    const event = args.hook_event_name || 'UserPromptSubmit';
    if (!(HOOK_TOOL_EVENTS as readonly string[]).includes(event)) {
      // As `tsm hook` logs an event it does not handle: an mcp_tool hook wired on Stop (whose session note
      // this read-only server never writes) or PreToolUse answered {} with nothing in hook.log, and doctor,
      // which shows that log's recent lines, had nothing to show.
      const why = `hook_context: ignored event "${event}" (it answers ${HOOK_TOOL_EVENTS.join(' and ')}; Stop, PreCompact and SessionEnd are \`tsm hook\`'s, a command hook)`;
      writeHookLog(hookVault(args, ctx), formatLogLine(event, typeof args.session_id === 'string' && args.session_id !== '' ? args.session_id : null, why), serverStderr);
      return NO_CONTEXT;
    }
    // The server's own vault when it is one (what its other tools search); otherwise the hook's rule:
    // $TSM_VAULT, then a .tsm/ folder at or above the session's cwd, else no context at all.
    const served = existsSync(join(ctx.cfg.vault, TSM_DIR));
    // Claude Code fills a missing ${field} with '': an empty value is an absent one.
    const payload = Object.fromEntries(
      Object.entries({ hook_event_name: event, prompt: args.prompt, session_id: args.session_id, cwd: args.cwd, source: args.source }).filter(
        ([, v]) => typeof v === 'string' && v !== '',
      ),
    );
    const { queryVector, detachHook } = ctx;
    try {
      const out = await handleHook({
        stdin: JSON.stringify(payload),
        vaultFlag: served ? ctx.cfg.vault : undefined,
        dbFlag: served ? ctx.cfg.db : undefined,
        env: process.env,
        cwd: process.cwd(),
        deadline,
        now: ctx.now(),
        // The server's own model, when the vault has one: the one thing the warm path adds to the cold.
        ...(queryVector ? { queryVector } : {}),
        // The background sync `tsm hook` starts, from the same rule (dispatch.ts, startBackgroundSync): at
        // SessionStart, and on a prompt that meets an index an older tsm wrote (without it, prompts got
        // nothing until the next command-hook SessionStart or `tsm index`).
        ...(detachHook ? { detach: detachHook } : {}),
      });
      if (out.stderr) serverStderr(out.stderr);
      const answer = out.exitCode === 0 && !out.timedOut ? out.stdout.trim() : '';
      return answer === '' ? NO_CONTEXT : answer;
    } catch (err) {
      process.stderr.write(`tsm serve: hook_context: ${err instanceof Error ? err.message : String(err)}\n`);
      return NO_CONTEXT;
    }
  },
  // What run() never sees: an argument of the wrong type, or a string other than the prompt past the
  // server's argument limit. The hook fails open on these too: nothing injected, the reason in hook.log.
  failOpen(problem, args, ctx) {
    const text = (v: unknown) => (typeof v === 'string' && v !== '' ? v : null);
    const event = text(args.hook_event_name) ?? 'UserPromptSubmit';
    writeHookLog(hookVault(args, ctx), formatLogLine(event, text(args.session_id), `hook_context: ${problem}; nothing injected`), serverStderr);
    return NO_CONTEXT;
  },
});
