// `tsm init --claude`: merge tsm's hooks and MCP server into a Claude Code project, never clobbering what
// is there (`tsm doctor` checks the result: claude-check.ts).
//
// Two scopes, the ones Claude Code itself has:
// - local (the default): hooks in <project>/.claude/settings.local.json, the MCP server in Claude Code's own
//   config file under projects[<project>].mcpServers (what `claude mcp add --scope local` writes). Personal:
//   they hold the absolute path of *your* vault, and no one commits them.
// - shared (`--shared`): <project>/.claude/settings.json and <project>/.mcp.json, the files a team commits.
import { spawnSync } from 'node:child_process';
import { ConfigError } from '../vault/config.js';
import { isInside } from '../vault/paths.js';
import { HOOK_EVENTS, type HookEvent } from './payload.js';
import { claudeConfigPath, isRecord, localSettingsPath, mcpPath, projectKey, settingsPath, type Json } from './claude-settings.js';
import { assertReplaceable, readJsonObject, readJsonOrNull, updateJson } from './settings-file.js';
import { claudeCodeVersion } from './claude-version.js';
import { FIRST_MCP_TOOL_HOOKS, handlersOf, hasMcpToolHooks, hookEntry, hooksShapeError, isTsmHook, isTsmServer, isTsmWarmHook, mcpServerEntry, shapeConsequence, unknownHookEvent, warmPromptHook, type CommandHook, type McpToolHook } from './wiring.js';

export interface WireOptions {
  /** Write the shared, committed files (.claude/settings.json, .mcp.json) instead of the local scope. */
  shared?: boolean;
  env?: NodeJS.ProcessEnv;
  /**
   * The Claude Code version to wire for (default: `claude --version` on env's PATH; null: unknown). From
   * 2.1.118 on, UserPromptSubmit is an mcp_tool hook answered by the project's `tsm serve`; before, and
   * when the version is unknown, the command hook every version runs.
   */
  claudeVersion?: string | null;
}

/**
 * Wires tsm into a Claude Code project; returns one message per file it changed or found in place.
 * Idempotent; other hooks and servers are kept; a file that is not valid JSON is left untouched and
 * reported as a ConfigError (before anything is written).
 */
export function wireClaudeCode(projectDir: string, vault: string, opts: WireOptions = {}): string[] {
  const env = opts.env ?? process.env;
  // `tsm hook` finds a vault at or above the project by itself; any other vault must be named.
  const extra = isInside(vault, projectDir) ? [] : ['--vault', vault];
  const settingsFile = opts.shared ? settingsPath(projectDir) : localSettingsPath(projectDir);
  const mcpFile = opts.shared ? mcpPath(projectDir) : claudeConfigPath(env);
  const settings = readJsonObject(settingsFile);
  const mcp = readJsonObject(mcpFile);
  const messages: string[] = [];
  const version = opts.claudeVersion !== undefined ? opts.claudeVersion : claudeCodeVersion(env);
  const warm = version !== null && hasMcpToolHooks(version);

  // Both merges (and so every check) happen before either file is written; then each file is read, merged
  // and written again under its lock (settings-file.ts), so a setup running meanwhile loses nothing.
  const mergeMcp = (data: Json) =>
    opts.shared
      ? mergeServer(mcpServersOf(data, mcpFile, null), mcpFile, { ...mcpServerEntry(extra) })
      : mergeServer(mcpServersOf(data, mcpFile, projectKey(projectDir)), `${mcpFile} (project ${projectKey(projectDir)})`, { type: 'stdio', ...mcpServerEntry(extra), env: {} });
  const planned = mergeMcp(mcp.data);
  // The warm prompt hook calls the server under the name it has (a kept user server other than `tsm
  // serve` named "tsm" leaves no server to call: the command hook then).
  const warmServer = warm && planned.name !== null ? planned.name : null;
  const mergeSettings = (data: Json) => mergeHooks(data, settingsFile, extra, warmServer);
  const plannedHooks = mergeSettings(settings.data);
  if (plannedHooks.changed) assertReplaceable(settingsFile);
  if (planned.changed) assertReplaceable(mcpFile);
  const hooks = plannedHooks.changed ? updateJson(settingsFile, mergeSettings) : plannedHooks;
  if (hooks.changed) {
    const parts = [hooks.added.length ? `added ${hooks.added.join(', ')}` : '', hooks.updated.length ? `updated ${hooks.updated.join(', ')}` : ''];
    messages.push(`${settingsFile}: tsm hooks ${parts.filter(Boolean).join('; ')}`);
  } else {
    messages.push(`${settingsFile}: tsm hooks already in place`);
  }
  // Not refused (2.1 runs the rest): said, since the Claude Code found here drops the whole file for it.
  const unknown = unknownHookEvent(settings.data, version);
  if (unknown) messages.push(`${settingsFile}: hook event "${unknown}" is unknown to Claude Code ${version}, which skips the whole file for it, tsm's hooks included: remove it, or upgrade Claude Code`);
  if (hooks.doubled.length) messages.push(`${settingsFile}: ${hooks.doubled.join(', ')}, left as they are: tsm runs once for each; keep one, remove the others`);

  const server = planned.changed ? updateJson(mcpFile, mergeMcp) : planned;
  messages.push(server.message);
  messages.push(
    hooks.warm
      ? `prompt hook: answered by the running tsm serve (an mcp_tool hook, Claude Code ${version}; run \`tsm init --claude\` again after a downgrade below ${FIRST_MCP_TOOL_HOOKS})`
      : `prompt hook: the command \`tsm hook\` (${version === null ? 'no `claude --version` on PATH' : `Claude Code ${version}`}; ${FIRST_MCP_TOOL_HOOKS} or later can have it answered by the running tsm serve: run \`tsm init --claude\` again after upgrading)`,
  );
  if (!opts.shared && hooks.changed && !settings.exists && trackedByGit(projectDir, settingsFile)) {
    // Claude Code adds settings.local.json to .gitignore when it creates the file itself; tsm does not edit
    // a user's .gitignore, so it says so instead.
    messages.push(`${settingsFile} is not ignored by git: add \`.claude/settings.local.json\` to .gitignore so your vault path stays out of commits`);
  }
  // The other scope's file is not ours to edit; if it runs tsm too, every hook would run twice.
  const otherFile = opts.shared ? localSettingsPath(projectDir) : settingsPath(projectDir);
  const other = readJsonOrNull(otherFile);
  if (other && HOOK_EVENTS.some((e) => handlersOf(other, e).some((h) => isTsmHook(h) || isTsmWarmHook(h)))) {
    messages.push(`${otherFile} runs tsm hooks too, so each would run twice: remove the tsm entries from one of the two files`);
  }
  return messages;
}

/** `warmServer`: the MCP server name the prompt hook calls (an mcp_tool hook), or null for the command hook. */
function mergeHooks(
  settings: Json,
  file: string,
  extra: string[],
  warmServer: string | null,
): { changed: boolean; added: HookEvent[]; updated: HookEvent[]; warm: boolean; doubled: string[] } {
  // Wired into a file Claude Code skips (any such error on 2.0, a bad matcher on 2.1), tsm's hooks would never run.
  const shape = hooksShapeError(settings);
  if (shape !== null) {
    throw new ConfigError(`${file}: ${shape.text}; ${shapeConsequence(shape)}: correct it, then run \`tsm init --claude\` again (the file was left as it is)`);
  }
  const hooks = (settings.hooks as Json | undefined) ?? {};
  const added: HookEvent[] = [];
  const updated: HookEvent[] = [];
  const doubled: string[] = [];
  let warm = false;
  for (const event of HOOK_EVENTS) {
    const groups = (hooks[event] as unknown[] | undefined) ?? [];
    // A hand-written `tsm hook` line for the prompt is the user's choice: no warm hook beside it (it would
    // search every prompt twice).
    const handWritten = event === 'UserPromptSubmit' && !findOwnHook(groups) && handlersOf({ hooks }, event).some(isTsmHook);
    const want: CommandHook | McpToolHook = event === 'UserPromptSubmit' && warmServer !== null && !handWritten ? warmPromptHook(warmServer) : hookEntry(event, extra);
    if (want.type === 'mcp_tool') warm = true;
    const mine = findOwnHook(groups);
    if (mine) {
      // Keep what the user added to our entry (e.g. a statusMessage); set what we own. An exec-form entry
      // from an older tsm loses its `args`, which Claude Code before exec form ignored; switching between
      // the command and the mcp_tool prompt hook drops the other kind's fields.
      const current = mine.group.hooks[mine.index] as Json;
      const merged: Json = { ...current };
      for (const key of want.type === 'mcp_tool' ? ['args', 'command'] : ['args', 'server', 'tool', 'input']) delete merged[key];
      Object.assign(merged, want);
      if (JSON.stringify(merged) !== JSON.stringify(current)) {
        mine.group.hooks[mine.index] = merged;
        updated.push(event);
      }
    } else if (!handlersOf({ hooks }, event).some(isTsmHook)) {
      // A hand-written `tsm hook` command line counts as wired; otherwise add our own group.
      groups.push({ hooks: [want] });
      added.push(event);
    }
    if (groups.length > 0) hooks[event] = groups;
    // Only the first is updated: another (an older tsm's beside a newer one's, or a second vault's) may be
    // meant, and is not ours to delete; it is said, as each runs tsm once more.
    const own = handlersOf({ hooks }, event).filter(isOwnHook).length;
    if (own > 1) doubled.push(`${event} has ${own} tsm entries`);
  }
  const changed = added.length + updated.length > 0;
  if (changed) settings.hooks = hooks;
  return { changed, added, updated, warm, doubled };
}

/**
 * An entry tsm wrote, which we may update in place: exec form (`tsm` with args starting `hook`, what tsm
 * wrote before), a command line that is `tsm hook` with nothing before it, or the warm prompt hook (an
 * mcp_tool call of hook_context). `npx tsm hook` or `TSM_VAULT=… tsm hook` are the user's own and left alone.
 */
function findOwnHook(groups: unknown[]): { group: { hooks: unknown[] }; index: number } | null {
  for (const group of groups) {
    if (!isRecord(group) || !Array.isArray(group.hooks)) continue;
    const index = group.hooks.findIndex(isOwnHook);
    if (index >= 0) return { group: group as { hooks: unknown[] }, index };
  }
  return null;
}

const isOwnHook = (h: unknown): boolean =>
  isTsmWarmHook(h) || (isTsmHook(h) && isRecord(h) && (Array.isArray(h.args) || (typeof h.command === 'string' && /^tsm\s+hook(\s|$)/.test(h.command.trim()))));

/** The `mcpServers` object to merge into: top level of .mcp.json, or projects[key] of Claude Code's config. */
function mcpServersOf(data: Json, file: string, key: string | null): Json {
  let holder = data;
  if (key !== null) {
    if (data.projects !== undefined && !isRecord(data.projects)) throw new ConfigError(`${file}: "projects" must be an object; the file was left as it is: correct it, then run \`tsm init --claude\` again`);
    const projects = (data.projects as Json | undefined) ?? {};
    if (projects[key] !== undefined && !isRecord(projects[key])) throw new ConfigError(`${file}: "projects" entry for ${key} must be an object; the file was left as it is: correct it, then run \`tsm init --claude\` again`);
    holder = (projects[key] as Json | undefined) ?? {};
    projects[key] = holder;
    data.projects = projects;
  }
  if (holder.mcpServers !== undefined && !isRecord(holder.mcpServers)) {
    throw new ConfigError(`${file}: "mcpServers" must be an object; the file was left as it is: correct it, then run \`tsm init --claude\` again`);
  }
  const servers = (holder.mcpServers as Json | undefined) ?? {};
  holder.mcpServers = servers;
  return servers;
}

/** `name`: the server's name once merged (what an mcp_tool hook calls), null when there is no `tsm serve`. */
function mergeServer(servers: Json, where: string, want: Json): { changed: boolean; message: string; name: string | null } {
  const current = servers.tsm;
  if (current !== undefined && !isTsmServer(current)) {
    const other = Object.entries(servers).find(([, v]) => isTsmServer(v));
    if (other) return { changed: false, message: `${where}: tsm MCP server already in place (as "${other[0]}")`, name: other[0] };
    return { changed: false, message: `${where}: kept the existing "tsm" server, which is not \`tsm serve\`; add \`tsm serve\` under another name to use tsm's MCP tools`, name: null };
  }
  if (current === undefined) {
    const other = Object.entries(servers).find(([, v]) => isTsmServer(v));
    if (other) return { changed: false, message: `${where}: tsm MCP server already in place (as "${other[0]}")`, name: other[0] };
  } else if (JSON.stringify({ command: (current as Json).command, args: (current as Json).args }) === JSON.stringify({ command: want.command, args: want.args })) {
    return { changed: false, message: `${where}: tsm MCP server already in place`, name: 'tsm' };
  }
  servers.tsm = isRecord(current) ? { ...current, command: want.command, args: want.args } : want;
  return { changed: true, message: `${where}: ${current === undefined ? 'added' : 'updated'} MCP server "tsm" (tsm serve)`, name: 'tsm' };
}

/** Whether `file` is inside a git work tree and not ignored there (false when git is missing or fails). */
function trackedByGit(projectDir: string, file: string): boolean {
  const r = spawnSync('git', ['-C', projectDir, 'check-ignore', '-q', '--no-index', file], { stdio: 'ignore', timeout: 5000 });
  // 0: ignored; 1: not ignored; 128: not a repository (or git failed).
  return r.status === 1;
}
