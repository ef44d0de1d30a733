// The one definition of how Claude Code runs tsm: the hook entries (a shell command line, per event, with
// timeouts) and the MCP server entry. plugin/ holds the same as files; a test keeps the two identical.
//
// Hooks are written in shell form (`"command": "tsm hook"`), never in exec form (`"command": "tsm",
// "args": ["hook"]`): Claude Code before exec form existed (2.0.76, for one) ignores `args` and runs bare
// `tsm`, so every hook lost its arguments (and, before bare `tsm` acted as `tsm hook`, every prompt was
// blocked). A shell command line runs the same on every version that has hooks: bash (or $SHELL) on
// POSIX, Git Bash or PowerShell on Windows, where `tsm hook` and a single-quoted path read the same.
// MCP servers have always taken `command` + `args`, so the MCP entry keeps exec form (no shell).
import { basename } from 'node:path';
import { HOOK_EVENTS, type HookEvent } from './payload.js';
import { shellQuote } from '../text/shell-quote.js';

/**
 * Claude Code's timeout per hook, in seconds. The prompt hook keeps its own, shorter deadline
 * (TSM_HOOK_TIMEOUT_MS); these only stop a process that hangs. SessionEnd hands its work to a detached
 * process and returns at once. Stop and PreCompact ingest and index inline.
 */
export const HOOK_TIMEOUT_S: Record<HookEvent, number> = {
  UserPromptSubmit: 5,
  SessionStart: 5,
  Stop: 30,
  PreCompact: 30,
  SessionEnd: 5,
};

export interface CommandHook {
  type: 'command';
  command: string;
  timeout: number;
}

export interface McpServer {
  command: string;
  args: string[];
}

/** `extraArgs` are added after `hook` (e.g. `--vault DIR` when the vault is not above the project), quoted. */
export function hookEntry(event: HookEvent, extraArgs: string[] = []): CommandHook {
  return { type: 'command', command: ['tsm', 'hook', ...extraArgs].map(shellQuote).join(' '), timeout: HOOK_TIMEOUT_S[event] };
}

export function mcpServerEntry(extraArgs: string[] = []): McpServer {
  return { command: 'tsm', args: ['serve', ...extraArgs] };
}

/**
 * The first Claude Code with `"type": "mcp_tool"` hooks (found by bisecting the published CLIs for the
 * hook type and checked by running 2.1.117 and 2.1.118; docs/claude-code.md). Every earlier version, 2.0.12
 * to 2.1.117, refuses a hooks file holding such an entry as a whole: none of its hooks run, silently.
 */
export const FIRST_MCP_TOOL_HOOKS = '2.1.118';

/** The warm prompt hook calls this tool of `tsm serve` (src/mcp/tools/hook-context.ts). */
export const HOOK_TOOL = 'hook_context';

/** The plugin whose prompt hook is answered by the running `tsm serve` (plugin-warm/). */
export const WARM_PLUGIN = 'tsm-warm';

export interface McpToolHook {
  type: 'mcp_tool';
  server: string;
  tool: string;
  input: Record<string, string>;
  timeout: number;
}

/**
 * UserPromptSubmit as a call of `tsm serve`'s hook_context tool on the MCP server named `server` (a plugin's
 * server is `plugin:<plugin>:<server>`). Claude Code fills each `${field}` from the hook payload (a missing
 * one becomes ''), waits for a server that is still connecting, and on any failure (not connected, an error,
 * the timeout) lets the prompt through with nothing added.
 */
export function warmPromptHook(server: string): McpToolHook {
  return {
    type: 'mcp_tool',
    server,
    tool: HOOK_TOOL,
    input: { hook_event_name: '${hook_event_name}', prompt: '${prompt}', session_id: '${session_id}', cwd: '${cwd}' },
    timeout: HOOK_TIMEOUT_S.UserPromptSubmit,
  };
}

/** Whether Claude Code `version` (x.y.z, as `claude --version` starts) runs mcp_tool hooks. */
export function hasMcpToolHooks(version: string): boolean {
  const v = version.split('.').map((n) => parseInt(n, 10));
  const first = FIRST_MCP_TOOL_HOOKS.split('.').map(Number);
  for (let i = 0; i < 3; i++) if ((v[i] || 0) !== first[i]) return (v[i] || 0) > first[i];
  return true;
}

/** plugin/hooks/hooks.json. */
export function pluginHooks(): { description: string; hooks: Record<string, { hooks: CommandHook[] }[]> } {
  const hooks: Record<string, { hooks: CommandHook[] }[]> = {};
  for (const event of HOOK_EVENTS) hooks[event] = [{ hooks: [hookEntry(event)] }];
  return { description: 'tsm: vault search results on every prompt, recent context at session start, session notes from transcripts', hooks };
}

/**
 * plugin-warm/hooks/hooks.json: plugin/'s hooks with the prompt hook answered by the plugin's own `tsm serve`.
 * Only for Claude Code 2.1.118 and later (see FIRST_MCP_TOOL_HOOKS): a separate plugin, because one
 * hooks.json cannot serve both, and the one plugin never runs the prompt search twice.
 */
export function pluginWarmHooks(): { description: string; hooks: Record<string, { hooks: (CommandHook | McpToolHook)[] }[]> } {
  const { hooks } = pluginHooks();
  return {
    description: 'tsm (Claude Code 2.1.118 or later): vault search results on every prompt from the running tsm serve, recent context at session start, session notes from transcripts',
    hooks: { ...hooks, UserPromptSubmit: [{ hooks: [warmPromptHook(`plugin:${WARM_PLUGIN}:tsm`)] }] },
  };
}

/** A hook handler that asks `tsm serve` for the prompt's context (an mcp_tool hook on hook_context). */
export function isTsmWarmHook(handler: unknown): boolean {
  return isRecord(handler) && handler.type === 'mcp_tool' && handler.tool === HOOK_TOOL;
}

/** plugin/.mcp.json. */
export function pluginMcp(): { mcpServers: Record<string, McpServer> } {
  return { mcpServers: { tsm: mcpServerEntry() } };
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function isTsmCommand(command: unknown): boolean {
  return typeof command === 'string' && /^tsm(\.cmd|\.exe)?$/i.test(basename(command.trim()));
}

/** A hook handler that runs `tsm hook`: exec form, or a shell command line such as `tsm hook` or `npx tsm hook`. */
export function isTsmHook(handler: unknown): boolean {
  if (!isRecord(handler)) return false;
  if (isTsmCommand(handler.command) && Array.isArray(handler.args)) return handler.args[0] === 'hook';
  return typeof handler.command === 'string' && /(^|[\s/\\])tsm(\.cmd|\.exe)?["']?\s+hook\b/i.test(handler.command);
}

/** An MCP server entry that runs `tsm serve`. */
export function isTsmServer(entry: unknown): boolean {
  if (!isRecord(entry)) return false;
  if (isTsmCommand(entry.command)) return Array.isArray(entry.args) && entry.args[0] === 'serve';
  return typeof entry.command === 'string' && /(^|[\s/\\])tsm(\.cmd|\.exe)?["']?\s+serve\b/i.test(entry.command);
}

/** Every hook handler under `hooks[event]` of a settings object (groups of `{ matcher?, hooks: [...] }`). */
export function handlersOf(settings: Record<string, unknown>, event: string): unknown[] {
  const hooks = settings.hooks;
  if (!isRecord(hooks) || !Array.isArray(hooks[event])) return [];
  return (hooks[event] as unknown[]).flatMap((group) => (isRecord(group) && Array.isArray(group.hooks) ? group.hooks : []));
}

/** Where a settings file's hooks break the shape Claude Code accepts, and whether every version skips the whole file for it. */
export interface HooksShapeError {
  /** The key and what belongs there: `"hooks.Stop.0.hooks" must be a list (found: an object)`. */
  text: string;
  /** The key alone, as `text` quotes it: `hooks.Stop.0.hooks`. */
  key: string;
  /** A matcher that is not text: the whole file is skipped on every version measured. */
  wholeFile: boolean;
}

/**
 * The first place where a settings object's `hooks` breaks the shape Claude Code accepts (null: none):
 * `hooks` an object of events, each a list of groups, each an object with a list `hooks` of objects and, if
 * any, a text `matcher`. What Claude Code does with such a file (`claude -p` with a UserPromptSubmit hook
 * beside the error, scripts of 2026-11-29): 2.0.12 and 2.0.76 skip the whole file for any of them, every
 * hook in it included; 2.1.331 skips that entry ("These settings entries were skipped; the rest of each
 * source is in effect"), or the whole file for a matcher that is not text ("These settings did not load").
 * Event names are not checked: which ones a version knows differs (2.0.76 skips a file naming one it does not).
 */
export function hooksShapeError(settings: Record<string, unknown>): HooksShapeError | null {
  const entry = (key: string, wants: string, found: unknown, wholeFile = false): HooksShapeError => ({ text: `"${key}" must be ${wants} (found: ${kindOf(found)})`, key, wholeFile });
  const hooks = settings.hooks;
  if (hooks === undefined) return null;
  if (!isRecord(hooks)) return entry('hooks', 'an object of events', hooks);
  for (const [event, groups] of Object.entries(hooks)) {
    if (!Array.isArray(groups)) return entry(`hooks.${event}`, 'a list', groups);
    for (const [i, group] of groups.entries()) {
      const at = `hooks.${event}.${i}`;
      if (!isRecord(group)) return entry(at, 'an object', group);
      if (group.matcher !== undefined && typeof group.matcher !== 'string') return entry(`${at}.matcher`, 'text', group.matcher, true);
      if (!Array.isArray(group.hooks)) return entry(`${at}.hooks`, 'a list', group.hooks);
      const j = group.hooks.findIndex((h) => !isRecord(h));
      if (j >= 0) return entry(`${at}.hooks.${j}`, 'an object', group.hooks[j]);
    }
  }
  return null;
}

/** What Claude Code does with a settings file holding `error`, as measured (hooksShapeError). */
export function shapeConsequence(error: HooksShapeError): string {
  return error.wholeFile
    ? 'Claude Code skips the whole file, every hook and setting in it'
    : 'Claude Code 2.0 skips the whole file for it, every hook and setting in it (2.1.331 skips that entry)';
}

/** Whether Claude Code `version` (null: unknown) skips a settings file holding `error` whole. */
export function skipsWholeFile(error: HooksShapeError, version: string | null): boolean {
  return error.wholeFile || (version !== null && version.startsWith('2.0.'));
}

/**
 * The hook events Claude Code 2.0.76 knows, from the schema in its bundle (cli.js); 2.0.12 knows these but
 * PostToolUseFailure, SubagentStart and PermissionRequest. Lists only grew.
 */
const EVENTS_2_0_76 = new Set(['PreToolUse', 'PostToolUse', 'PostToolUseFailure', 'Notification', 'UserPromptSubmit', 'SessionStart', 'SessionEnd', 'Stop', 'SubagentStart', 'SubagentStop', 'PreCompact', 'PermissionRequest']);

/**
 * A hook event of `settings` that Claude Code `version` does not know, for which it skips the whole file
 * (null: none, or a version not known to do so). Measured on 2.0.76: a UserPromptSubmit hook beside
 * `"NoSuchEvent": []` never ran; 2.1.331 skips only that entry ("Unknown hook event"). Checked for 2.0.x up
 * to 2.0.76, and only against 2.0.76's list (an older 2.0 may know fewer): another tool's newer event
 * (`StopFailure`, `PostCompact`) switched tsm's hooks off with it.
 */
export function unknownHookEvent(settings: Record<string, unknown>, version: string | null): string | null {
  const m = version === null ? null : /^2\.0\.(\d+)/.exec(version);
  if (!m || Number(m[1]) > 76 || !isRecord(settings.hooks)) return null;
  return Object.keys(settings.hooks).find((e) => !EVENTS_2_0_76.has(e)) ?? null;
}

function kindOf(v: unknown): string {
  if (v === undefined) return 'nothing';
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'a list';
  return typeof v === 'object' ? 'an object' : typeof v === 'string' ? 'text' : `a ${typeof v}`;
}
