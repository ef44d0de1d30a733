// `tsm init --claude` and `tsm doctor`: merge tsm's hooks and MCP server into a Claude Code project, never
// clobbering what is there; and check that wiring later.
//
// Two scopes, the ones Claude Code itself has:
// - local (the default): hooks in <project>/.claude/settings.local.json, the MCP server in Claude Code's own
//   config file under projects[<project>].mcpServers (what `claude mcp add --scope local` writes). Personal:
//   they hold the absolute path of *your* vault, and no one commits them.
// - shared (`--shared`): <project>/.claude/settings.json and <project>/.mcp.json, the files a team commits.
import { accessSync, chmodSync, constants, existsSync, mkdirSync, readFileSync, realpathSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { basename, delimiter, dirname, join, resolve } from 'node:path';
import type { DoctorProblem } from '../core/types.js';
import { ConfigError, isInside } from '../vault/config.js';
import { HOOK_EVENTS, type HookEvent } from './payload.js';
import { handlersOf, hookEntry, HOOK_TIMEOUT_S, isTsmHook, isTsmServer, mcpServerEntry } from './wiring.js';

type Json = Record<string, unknown>;
const isRecord = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

export function settingsPath(projectDir: string): string {
  return join(projectDir, '.claude', 'settings.json');
}

export function localSettingsPath(projectDir: string): string {
  return join(projectDir, '.claude', 'settings.local.json');
}

export function mcpPath(projectDir: string): string {
  return join(projectDir, '.mcp.json');
}

/** Claude Code's own config file (user and local-scope MCP servers, per-project state). */
export function claudeConfigPath(env: NodeJS.ProcessEnv = process.env): string {
  return env.CLAUDE_CONFIG_DIR ? join(env.CLAUDE_CONFIG_DIR, '.claude.json') : join(env.HOME || homedir(), '.claude.json');
}

/** User settings (~/.claude/settings.json): hooks there run in every project. */
export function userSettingsPath(env: NodeJS.ProcessEnv = process.env): string {
  return join(env.CLAUDE_CONFIG_DIR || join(env.HOME || homedir(), '.claude'), 'settings.json');
}

/** The key Claude Code files a project under in its config: the folder's real path (its cwd). */
export function projectKey(projectDir: string): string {
  try {
    return realpathSync(projectDir);
  } catch {
    return resolve(projectDir);
  }
}

export interface WireOptions {
  /** Write the shared, committed files (.claude/settings.json, .mcp.json) instead of the local scope. */
  shared?: boolean;
  env?: NodeJS.ProcessEnv;
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

  // Both merges (and so every check) happen before either file is written.
  const hooks = mergeHooks(settings.data, settingsFile, extra);
  const server = opts.shared
    ? mergeServer(mcpServersOf(mcp.data, mcpFile, null), mcpFile, { ...mcpServerEntry(extra) })
    : mergeServer(mcpServersOf(mcp.data, mcpFile, projectKey(projectDir)), `${mcpFile} (project ${projectKey(projectDir)})`, { type: 'stdio', ...mcpServerEntry(extra), env: {} });
  if (hooks.changed) {
    writeJson(settingsFile, settings.data);
    const parts = [hooks.added.length ? `added ${hooks.added.join(', ')}` : '', hooks.updated.length ? `updated ${hooks.updated.join(', ')}` : ''];
    messages.push(`${settingsFile}: tsm hooks ${parts.filter(Boolean).join('; ')}`);
  } else {
    messages.push(`${settingsFile}: tsm hooks already in place`);
  }
  if (server.changed) writeJson(mcpFile, mcp.data);
  messages.push(server.message);

  // The other scope's file is not ours to edit; if it runs tsm too, every hook would run twice.
  const otherFile = opts.shared ? localSettingsPath(projectDir) : settingsPath(projectDir);
  const other = readJsonOrNull(otherFile);
  if (other && HOOK_EVENTS.some((e) => handlersOf(other, e).some(isTsmHook))) {
    messages.push(`${otherFile} runs tsm hooks too, so each would run twice: remove the tsm entries from one of the two files`);
  }
  return messages;
}

interface JsonFile {
  data: Json;
  exists: boolean;
}

function readJsonObject(path: string): JsonFile {
  if (!existsSync(path)) return { data: {}, exists: false };
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw new ConfigError(`cannot read ${path}: ${(err as Error).message}`);
  }
  if (text.trim() === '') return { data: {}, exists: true };
  let data: unknown;
  try {
    data = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch (err) {
    throw new ConfigError(`${path} is not valid JSON (${(err as Error).message}); it was left as it is: correct it, then run \`tsm init --claude\` again`);
  }
  if (!isRecord(data)) throw new ConfigError(`${path} must hold a JSON object; it was left as it is`);
  return { data, exists: true };
}

function readJsonOrNull(path: string): Json | null {
  try {
    return readJsonObject(path).data;
  } catch {
    return null;
  }
}

/**
 * Atomic (Claude Code may read the file at any moment), and keeping the file's mode: Claude Code's own
 * config is private (0600) and must stay so.
 */
function writeJson(path: string, data: Json): void {
  let mode = 0o644;
  try {
    mode = statSync(path).mode & 0o777;
  } catch {
    if (basename(path) === '.claude.json') mode = 0o600;
  }
  const temp = join(dirname(path), `.${basename(path)}.${process.pid}.tmp`);
  try {
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(temp, `${JSON.stringify(data, null, 2)}\n`, { mode });
    chmodSync(temp, mode);
    renameSync(temp, path);
  } catch (err) {
    rmSync(temp, { force: true });
    throw new ConfigError(`cannot write ${path}: ${(err as Error).message}`);
  }
}

function mergeHooks(settings: Json, file: string, extra: string[]): { changed: boolean; added: HookEvent[]; updated: HookEvent[] } {
  if (settings.hooks !== undefined && !isRecord(settings.hooks)) {
    throw new ConfigError(`${file}: "hooks" must be an object; the file was left as it is`);
  }
  const hooks = (settings.hooks as Json | undefined) ?? {};
  for (const event of HOOK_EVENTS) {
    if (hooks[event] !== undefined && !Array.isArray(hooks[event])) {
      throw new ConfigError(`${file}: "hooks.${event}" must be a list; the file was left as it is`);
    }
  }
  const added: HookEvent[] = [];
  const updated: HookEvent[] = [];
  for (const event of HOOK_EVENTS) {
    const want = hookEntry(event, extra);
    const groups = (hooks[event] as unknown[] | undefined) ?? [];
    const mine = findOwnHook(groups);
    if (mine) {
      // Keep what the user added to our entry (e.g. a statusMessage); set command and timeout. An exec-form
      // entry from an older tsm loses its `args`, which Claude Code before exec form ignored.
      const current = mine.group.hooks[mine.index] as Json;
      const { args: _args, ...rest } = current;
      const merged = { ...rest, ...want };
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
  }
  const changed = added.length + updated.length > 0;
  if (changed) settings.hooks = hooks;
  return { changed, added, updated };
}

/**
 * An entry tsm wrote, which we may update in place: exec form (`tsm` with args starting `hook`, what tsm
 * wrote before) or a command line that is `tsm hook` with nothing before it. `npx tsm hook` or
 * `TSM_VAULT=… tsm hook` are the user's own and left alone.
 */
function findOwnHook(groups: unknown[]): { group: { hooks: unknown[] }; index: number } | null {
  for (const group of groups) {
    if (!isRecord(group) || !Array.isArray(group.hooks)) continue;
    const index = group.hooks.findIndex(
      (h) => isTsmHook(h) && isRecord(h) && (Array.isArray(h.args) || (typeof h.command === 'string' && /^tsm\s+hook(\s|$)/.test(h.command.trim()))),
    );
    if (index >= 0) return { group: group as { hooks: unknown[] }, index };
  }
  return null;
}

/** The `mcpServers` object to merge into: top level of .mcp.json, or projects[key] of Claude Code's config. */
function mcpServersOf(data: Json, file: string, key: string | null): Json {
  let holder = data;
  if (key !== null) {
    if (data.projects !== undefined && !isRecord(data.projects)) throw new ConfigError(`${file}: "projects" must be an object; the file was left as it is`);
    const projects = (data.projects as Json | undefined) ?? {};
    if (projects[key] !== undefined && !isRecord(projects[key])) throw new ConfigError(`${file}: "projects" entry for ${key} must be an object; the file was left as it is`);
    holder = (projects[key] as Json | undefined) ?? {};
    projects[key] = holder;
    data.projects = projects;
  }
  if (holder.mcpServers !== undefined && !isRecord(holder.mcpServers)) {
    throw new ConfigError(`${file}: "mcpServers" must be an object; the file was left as it is`);
  }
  const servers = (holder.mcpServers as Json | undefined) ?? {};
  holder.mcpServers = servers;
  return servers;
}

function mergeServer(servers: Json, where: string, want: Json): { changed: boolean; message: string } {
  const current = servers.tsm;
  if (current !== undefined && !isTsmServer(current)) {
    const other = Object.entries(servers).find(([, v]) => isTsmServer(v));
    if (other) return { changed: false, message: `${where}: tsm MCP server already in place (as "${other[0]}")` };
    return { changed: false, message: `${where}: kept the existing "tsm" server, which is not \`tsm serve\`; add \`tsm serve\` under another name to use tsm's MCP tools` };
  }
  if (current === undefined) {
    const other = Object.entries(servers).find(([, v]) => isTsmServer(v));
    if (other) return { changed: false, message: `${where}: tsm MCP server already in place (as "${other[0]}")` };
  } else if (JSON.stringify({ command: (current as Json).command, args: (current as Json).args }) === JSON.stringify({ command: want.command, args: want.args })) {
    return { changed: false, message: `${where}: tsm MCP server already in place` };
  }
  servers.tsm = isRecord(current) ? { ...current, command: want.command, args: want.args } : want;
  return { changed: true, message: `${where}: ${current === undefined ? 'added' : 'updated'} MCP server "tsm" (tsm serve)` };
}

/** A place Claude Code reads hooks or MCP servers from, as doctor names it. */
interface Source {
  name: string;
  file: string;
  data: Json;
}

/** `tsm doctor`: is this project wired (in any scope), once, and can Claude Code run `tsm` at all? */
export function checkClaudeWiring(projectDir: string, env: NodeJS.ProcessEnv = process.env): DoctorProblem[] {
  const problems: DoctorProblem[] = [];
  const fix = `run \`tsm init --claude\` in ${projectDir} (or install the tsm plugin: see docs/claude-code.md)`;
  const read = (name: string, file: string): Source | null => {
    try {
      const parsed = readJsonObject(file);
      return parsed.exists ? { name, file, data: parsed.data } : null;
    } catch (err) {
      problems.push({ check: 'claude', severity: 'error', message: (err as Error).message, fix: `correct ${file}; Claude Code cannot read it either` });
      return null;
    }
  };
  const settingsSources = [
    read('user settings', userSettingsPath(env)),
    read('shared project settings', settingsPath(projectDir)),
    read('local project settings', localSettingsPath(projectDir)),
  ].filter((s): s is Source => s !== null);
  const config = read("Claude Code's config", claudeConfigPath(env));
  const shared = read('shared .mcp.json', mcpPath(projectDir));

  // The plugin brings every hook and the MCP server with it.
  const plugin = settingsSources.find((s) => isRecord(s.data.enabledPlugins) && Object.entries(s.data.enabledPlugins).some(([k, v]) => /^tsm@/.test(k) && v === true));

  const handlers = new Map<HookEvent, { source: string; handler: unknown }[]>(HOOK_EVENTS.map((e) => [e, []]));
  for (const s of settingsSources) {
    for (const event of HOOK_EVENTS) for (const h of handlersOf(s.data, event).filter(isTsmHook)) handlers.get(event)?.push({ source: s.file, handler: h });
  }
  const missing = HOOK_EVENTS.filter((e) => (handlers.get(e) ?? []).length === 0);
  if (missing.length === HOOK_EVENTS.length && !plugin) {
    // Maybe not a project you use with Claude Code at all: say it, without calling it a fault.
    problems.push({ check: 'claude', severity: 'info', message: `Claude Code does not run tsm in ${projectDir} (no tsm hooks in any settings file, no tsm plugin enabled)`, fix });
  } else if (missing.length > 0 && !plugin) {
    problems.push({
      check: 'claude',
      severity: 'warning',
      message: `these Claude Code hooks do not run tsm in ${projectDir}: ${missing.join(', ')}`,
      fix,
    });
  }
  const twice = HOOK_EVENTS.filter((e) => (handlers.get(e) ?? []).length + (plugin ? 1 : 0) > 1);
  if (twice.length > 0) {
    const where = new Set([...twice.flatMap((e) => (handlers.get(e) ?? []).map((h) => h.source)), ...(plugin ? [`the tsm plugin (enabled in ${plugin.file})`] : [])]);
    problems.push({
      check: 'claude',
      severity: 'warning',
      message: `tsm runs more than once for ${twice.join(', ')} (wired in ${[...where].join(' and ')}), so each prompt gets its search results twice`,
      fix: 'keep one: remove the tsm entries from the other files (or disable the plugin)',
    });
  }
  for (const [event, list] of handlers) {
    for (const { source, handler: h } of list) {
      if (isRecord(h) && Array.isArray(h.args)) {
        problems.push({
          check: 'claude',
          severity: 'warning',
          message: `the ${event} hook in ${source} is in exec form ("args"), which Claude Code before exec form (2.0.76, for one) ignores: it runs bare \`tsm\``,
          fix: 'run `tsm init --claude` again (it rewrites the entry as the command line `tsm hook`)',
        });
      }
      const timeout = isRecord(h) && typeof h.timeout === 'number' ? h.timeout : null;
      if (timeout !== null && timeout < HOOK_TIMEOUT_S[event] && event !== 'SessionEnd') {
        problems.push({
          check: 'claude',
          severity: 'warning',
          message: `the ${event} hook's timeout is ${timeout} s in ${source}; tsm may be stopped before it answers`,
          fix: `raise it to ${HOOK_TIMEOUT_S[event]} s (\`tsm init --claude\` does)`,
        });
      }
    }
  }

  const key = projectKey(projectDir);
  const servers: Json[] = [];
  if (shared && isRecord(shared.data.mcpServers)) servers.push(shared.data.mcpServers);
  if (config && isRecord(config.data.mcpServers)) servers.push(config.data.mcpServers);
  if (config && isRecord(config.data.projects) && isRecord(config.data.projects[key]) && isRecord(config.data.projects[key].mcpServers)) {
    servers.push(config.data.projects[key].mcpServers as Json);
  }
  if (!plugin && !servers.some((s) => Object.values(s).some(isTsmServer))) {
    problems.push({
      check: 'claude',
      severity: 'info',
      message: `no \`tsm serve\` MCP server for ${projectDir} (looked in ${mcpPath(projectDir)} and ${claudeConfigPath(env)})`,
      fix,
    });
  }

  const all = [...handlers.values()].flat().map((h) => h.handler);
  const usesBareTsm = plugin !== undefined || all.some((h) => isRecord(h) && typeof h.command === 'string' && /^tsm(\s|$)/.test(h.command.trim()));
  if (usesBareTsm && !onPath('tsm', env)) {
    problems.push({
      check: 'claude',
      severity: 'error',
      message: '`tsm` is not on PATH, so Claude Code cannot run the hooks',
      fix: 'install tsm globally (`npm install -g the-space-memory`, or `npm link` in a checkout), or put the absolute path of bin/tsm in "command"',
    });
  }
  return problems;
}

/**
 * The vault Claude Code's tsm hooks use in this project, as its settings say: `--vault` of a tsm hook
 * (project settings, local first), else TSM_VAULT in the `env` of a settings file (local, shared, user).
 * Lets `tsm doctor` run in a project check the right vault. Null when the settings name none.
 */
export function wiredVault(projectDir: string, env: NodeJS.ProcessEnv = process.env): string | null {
  const files = [localSettingsPath(projectDir), settingsPath(projectDir), userSettingsPath(env)];
  const all = files.map(readJsonOrNull);
  for (const data of all.slice(0, 2)) {
    if (!data) continue;
    for (const event of HOOK_EVENTS) {
      for (const h of handlersOf(data, event).filter(isTsmHook)) {
        if (!isRecord(h)) continue;
        const words = Array.isArray(h.args) ? h.args.map(String) : typeof h.command === 'string' ? shellWords(h.command) : [];
        const at = words.indexOf('--vault');
        if (at >= 0 && words[at + 1]) return resolve(projectDir, words[at + 1]);
        const eq = words.find((w) => w.startsWith('--vault='));
        if (eq) return resolve(projectDir, eq.slice('--vault='.length));
      }
    }
  }
  for (const data of all) {
    const v = data && isRecord(data.env) ? data.env.TSM_VAULT : undefined;
    if (typeof v === 'string' && v !== '') return resolve(projectDir, v);
  }
  return null;
}

/** Splits a command line the way a POSIX shell would for plain words, single and double quotes (no expansion). */
export function shellWords(line: string): string[] {
  const words: string[] = [];
  let word: string | null = null;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (c === "'") {
      const end = line.indexOf("'", i + 1);
      word = (word ?? '') + line.slice(i + 1, end < 0 ? line.length : end);
      i = end < 0 ? line.length : end;
    } else if (c === '"') {
      let j = i + 1;
      let text = '';
      for (; j < line.length && line[j] !== '"'; j++) text += line[j] === '\\' && j + 1 < line.length ? line[++j] : line[j];
      word = (word ?? '') + text;
      i = j;
    } else if (c === '\\' && i + 1 < line.length) {
      word = (word ?? '') + line[++i];
    } else if (/\s/.test(c)) {
      if (word !== null) words.push(word);
      word = null;
    } else {
      word = (word ?? '') + c;
    }
  }
  if (word !== null) words.push(word);
  return words;
}

/** Whether an executable called `name` is on PATH. */
export function onPath(name: string, env: NodeJS.ProcessEnv): boolean {
  const exts = process.platform === 'win32' ? (env.PATHEXT ?? '.EXE;.CMD;.BAT').split(';') : [''];
  for (const dir of (env.PATH ?? '').split(delimiter)) {
    if (dir === '') continue;
    for (const ext of exts) {
      try {
        accessSync(join(dir, name + ext), constants.X_OK);
        return true;
      } catch {
        // not here
      }
    }
  }
  return false;
}
