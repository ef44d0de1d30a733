// `tsm doctor`: the Claude Code wiring of a project in every scope Claude Code reads (user, shared and local
// settings, an enabled tsm plugin; .mcp.json and ~/.claude.json for MCP), and the vault that wiring names.
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';
import type { DoctorProblem } from '../core/types.js';
import { userPath } from '../vault/config.js';
import { HOOK_EVENTS, type HookEvent } from './payload.js';
import {
  claudeConfigPath,
  isRecord,
  localSettingsPath,
  mcpPath,
  projectKey,
  settingsPath,
  userSettingsPath,
  type Json,
} from './claude-settings.js';
import { claudeCodeVersion } from './claude-version.js';
import { readJsonObject, readJsonOrNull } from './settings-file.js';

export { claudeCodeVersion };
export { claudeProject } from './claude-settings.js';
import { FIRST_MCP_TOOL_HOOKS, handlersOf, hasMcpToolHooks, HOOK_TIMEOUT_S, hooksShapeError, isTsmHook, isTsmServer, isTsmWarmHook, shapeConsequence, skipsWholeFile, unknownHookEvent, WARM_PLUGIN } from './wiring.js';

/** A place Claude Code reads hooks or MCP servers from, as doctor names it. */
interface Source {
  name: string;
  file: string;
  data: Json;
}

/** An enabled tsm plugin: `tsm` (command hooks) or `tsm-warm` (the prompt hook as an mcp_tool call). */
interface EnabledPlugin {
  name: string;
  file: string;
}

/** The tsm plugins enabled in these settings (`enabledPlugins` with a `tsm@…` or `tsm-warm@…` key set to true). */
function enabledPlugins(sources: Source[]): EnabledPlugin[] {
  const out: EnabledPlugin[] = [];
  for (const s of sources) {
    if (!isRecord(s.data.enabledPlugins)) continue;
    for (const [key, on] of Object.entries(s.data.enabledPlugins)) {
      const m = /^(tsm|tsm-warm)@/.exec(key);
      if (m && on === true && !out.some((p) => p.name === m[1])) out.push({ name: m[1], file: s.file });
    }
  }
  return out;
}

/** Whether Claude Code `version` skips this settings file whole (hooks in a shape it refuses: wiring.ts). */
function skipped(data: Json, version: string | null): boolean {
  const shape = hooksShapeError(data);
  return (shape !== null && skipsWholeFile(shape, version)) || unknownHookEvent(data, version) !== null;
}

/**
 * How Claude Code answers UserPromptSubmit in this project, in one line for `tsm doctor`: by the running
 * `tsm serve` (an mcp_tool hook: the tsm-warm plugin, or `tsm init --claude` for Claude Code 2.1.118+), by
 * `tsm hook` (a process per prompt), or not at all. `claudeVersion`: default `claude --version` on PATH.
 */
export function promptHookLine(projectDir: string, env: NodeJS.ProcessEnv = process.env, claudeVersion: string | null = claudeCodeVersion(env)): string {
  const sources = [userSettingsPath(env), settingsPath(projectDir), localSettingsPath(projectDir)]
    .map((file) => ({ name: file, file, data: readJsonOrNull(file) }))
    // A file Claude Code skips (hooks in a shape it refuses: checkClaudeWiring names it) answers nothing.
    .filter((s): s is Source => s.data !== null && !skipped(s.data, claudeVersion));
  const plugins = enabledPlugins(sources).map((p) => p.name);
  const handlers = sources.flatMap((s) => handlersOf(s.data, 'UserPromptSubmit'));
  const paths = [
    ...(plugins.includes(WARM_PLUGIN) || handlers.some(isTsmWarmHook) ? ['answered by the running tsm serve (an mcp_tool hook)'] : []),
    ...(plugins.includes('tsm') || handlers.some(isTsmHook) ? ['`tsm hook`, a new process per prompt'] : []),
  ];
  const version = claudeVersion === null ? 'Claude Code version unknown (no `claude` on PATH)' : `Claude Code ${claudeVersion}`;
  return `${paths.length ? paths.join(' and ') : 'tsm does not answer it'} (${version})`;
}

/** `tsm doctor`: is this project wired (in any scope), once, and can Claude Code run `tsm` at all? */
export function checkClaudeWiring(projectDir: string, env: NodeJS.ProcessEnv = process.env, claudeVersion: string | null = claudeCodeVersion(env)): DoctorProblem[] {
  const problems: DoctorProblem[] = [];
  // `tsm init --claude` writes the local settings file, and refuses it while its hooks break Claude Code's
  // shape (claude-setup.ts); in a file Claude Code skips for an unknown event, the hooks it adds never run.
  // Either way, "run `tsm init --claude`" alone was a fix that did not work: that file is corrected first.
  let initFirst = '';
  const read = (name: string, file: string): Source | null => {
    try {
      const parsed = readJsonObject(file);
      return parsed.exists ? { name, file, data: parsed.data } : null;
    } catch (err) {
      problems.push({ check: 'claude', severity: 'error', message: (err as Error).message, fix: `correct ${file}; Claude Code cannot read it either` });
      return null;
    }
  };
  // Hooks in a shape Claude Code refuses are an error; a file it skips whole wires nothing, whatever it holds.
  const readSettings = (name: string, file: string): Source | null => {
    const source = read(name, file);
    const event = source && unknownHookEvent(source.data, claudeVersion);
    if (event) {
      if (file === localSettingsPath(projectDir)) initFirst = `remove "${event}" from ${file}, then `;
      problems.push({
        check: 'claude',
        severity: 'error',
        message: `${file}: hook event "${event}" is unknown to Claude Code ${claudeVersion}, which skips the whole file for it, every hook and setting in it`,
        fix: `remove "${event}" from ${file}, or upgrade Claude Code (2.1 skips only that entry)`,
      });
      return null;
    }
    const shape = source && hooksShapeError(source.data);
    if (!shape) return source;
    if (file === localSettingsPath(projectDir)) initFirst = `correct "${shape.key}" in ${file}, then `;
    problems.push({ check: 'claude', severity: 'error', message: `${file}: ${shape.text}: ${shapeConsequence(shape)}`, fix: `correct "${shape.key}" in ${file}` });
    return skipsWholeFile(shape, claudeVersion) ? null : source;
  };
  const settingsSources = [
    readSettings('user settings', userSettingsPath(env)),
    readSettings('shared project settings', settingsPath(projectDir)),
    readSettings('local project settings', localSettingsPath(projectDir)),
  ].filter((s): s is Source => s !== null);
  const init = `${initFirst}run \`tsm init --claude\``;
  const fix = `${init} in ${projectDir} (or install the tsm plugin: see docs/claude-code.md)`;
  const config = read("Claude Code's config", claudeConfigPath(env));
  const shared = read('shared .mcp.json', mcpPath(projectDir));

  // A plugin (tsm or tsm-warm) brings every hook and the MCP server with it.
  const plugins = enabledPlugins(settingsSources);
  const plugin = plugins[0];

  const handlers = new Map<HookEvent, { source: string; handler: unknown }[]>(HOOK_EVENTS.map((e) => [e, []]));
  for (const s of settingsSources) {
    for (const event of HOOK_EVENTS) {
      for (const h of handlersOf(s.data, event).filter((h) => isTsmHook(h) || (event === 'UserPromptSubmit' && isTsmWarmHook(h)))) handlers.get(event)?.push({ source: s.file, handler: h });
    }
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
  // Claude Code's switch for every hook (docs/claude-code.md, "Turning it off"): the most local file that sets
  // it wins (sources run user, shared, local). Left on, the wiring looked fine and no tsm hook ran.
  const off = settingsSources.filter((s) => typeof s.data.disableAllHooks === 'boolean').at(-1);
  if (off?.data.disableAllHooks === true && (missing.length < HOOK_EVENTS.length || plugin)) {
    problems.push({
      check: 'claude',
      severity: 'warning',
      message: `${off.file} sets "disableAllHooks": true, so Claude Code runs no hook, tsm's included`,
      fix: `remove "disableAllHooks" from ${off.file} when you want tsm's hooks back`,
    });
  }
  const twice = HOOK_EVENTS.filter((e) => (handlers.get(e) ?? []).length + plugins.length > 1);
  if (twice.length > 0) {
    const where = new Set([...twice.flatMap((e) => (handlers.get(e) ?? []).map((h) => h.source)), ...plugins.map((p) => `the ${p.name} plugin (enabled in ${p.file})`)]);
    problems.push({
      check: 'claude',
      severity: 'warning',
      message: `tsm runs more than once for ${twice.join(', ')} (wired in ${[...where].join(' and ')}), so ${twice.includes('UserPromptSubmit') ? 'each prompt gets its search results twice' : 'each of those hooks runs twice'}`,
      // All in one file (two entries for one event): "the other files" named none.
      fix:
        where.size === 1 && plugins.length === 0
          ? `keep one tsm entry per event in ${[...where][0]}: remove the others`
          : `keep one: remove the tsm entries from the other files (or disable the plugin${plugins.length > 1 ? `: tsm-warm on Claude Code ${FIRST_MCP_TOOL_HOOKS} or later, tsm before` : ''})`,
    });
  }
  problems.push(...promptHookProblems(plugins, handlers.get('UserPromptSubmit') ?? [], claudeVersion, init));
  for (const [event, list] of handlers) {
    for (const { source, handler: h } of list) {
      if (isRecord(h) && Array.isArray(h.args)) {
        problems.push({
          check: 'claude',
          severity: 'warning',
          message: `the ${event} hook in ${source} is in exec form ("args"), which Claude Code before exec form (2.0.76, for one) ignores: it runs bare \`tsm\``,
          fix: `${init} again (it rewrites the entry as the command line \`tsm hook\`)`,
        });
      }
      const timeout = isRecord(h) && typeof h.timeout === 'number' ? h.timeout : null;
      if (timeout !== null && timeout < HOOK_TIMEOUT_S[event] && event !== 'SessionEnd') {
        problems.push({
          check: 'claude',
          severity: 'warning',
          message: `the ${event} hook's timeout is ${timeout} s in ${source}; tsm may be stopped before it answers`,
          fix: initFirst ? `raise it to ${HOOK_TIMEOUT_S[event]} s (or ${init}, which does)` : `raise it to ${HOOK_TIMEOUT_S[event]} s (\`tsm init --claude\` does)`,
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
      fix: NOT_ON_PATH_FIX,
    });
  }
  return problems;
}

/**
 * The prompt hook against the Claude Code version: an mcp_tool hook on a version without them makes Claude
 * Code drop the whole hooks file holding it (every tsm hook of that plugin or file is gone, silently);
 * the command hook on a version with them works, and `tsm serve` could answer instead. `init`: how to run
 * `tsm init --claude` here (with the correction that must come first, when the local settings need one).
 */
function promptHookProblems(plugins: EnabledPlugin[], handlers: { source: string; handler: unknown }[], version: string | null, init: string): DoctorProblem[] {
  if (version === null) return [];
  const warmWiring = [...plugins.filter((p) => p.name === WARM_PLUGIN).map((p) => `the ${p.name} plugin (enabled in ${p.file})`), ...handlers.filter((h) => isTsmWarmHook(h.handler)).map((h) => h.source)];
  const commandWiring = [...plugins.filter((p) => p.name === 'tsm').map((p) => `the ${p.name} plugin (enabled in ${p.file})`), ...handlers.filter((h) => isTsmHook(h.handler)).map((h) => h.source)];
  if (!hasMcpToolHooks(version) && warmWiring.length > 0) {
    return [
      {
        check: 'claude',
        severity: 'error',
        message: `Claude Code ${version} has no mcp_tool hooks (${FIRST_MCP_TOOL_HOOKS} added them) and drops a whole hooks file holding one: none of the tsm hooks in ${warmWiring.join(' and ')} run`,
        fix: `update Claude Code (\`claude update\`), or use the command hook: \`claude plugin install tsm@the-space-memory\` in place of tsm-warm, or ${init} again`,
      },
    ];
  }
  if (hasMcpToolHooks(version) && warmWiring.length === 0 && commandWiring.length > 0) {
    return [
      {
        check: 'claude',
        severity: 'info',
        message: `the prompt hook starts \`tsm hook\` for every prompt (${commandWiring.join(' and ')}); Claude Code ${version} can have the tsm serve it already runs answer instead`,
        fix: `plugin: \`claude plugin install tsm-warm@the-space-memory\`, then \`claude plugin uninstall tsm@the-space-memory\`; settings: ${init} again`,
      },
    ];
  }
  return [];
}

/**
 * The vault Claude Code's tsm hooks use in this project, as its settings say: `--vault` of a tsm hook
 * (project settings, local first), else TSM_VAULT in the `env` of a settings file (local, shared, user).
 * Lets `tsm doctor` run in a project check the right vault. Null when the settings name none.
 */
export function wiredVault(projectDir: string, env: NodeJS.ProcessEnv = process.env): string | null {
  return wiredVaultFrom(projectDir, env)?.vault ?? null;
}

/** wiredVault, and where the settings name it (`TSM_VAULT in <file>`), for an error that says where to correct it. */
export function wiredVaultFrom(projectDir: string, env: NodeJS.ProcessEnv = process.env): { vault: string; from: string } | null {
  const files = [localSettingsPath(projectDir), settingsPath(projectDir), userSettingsPath(env)];
  const all = files.map(readJsonOrNull);
  for (const [i, data] of all.slice(0, 2).entries()) {
    if (!data) continue;
    const from = `--vault of a tsm hook in ${files[i]}`;
    for (const event of HOOK_EVENTS) {
      for (const h of handlersOf(data, event).filter(isTsmHook)) {
        if (!isRecord(h)) continue;
        const words = Array.isArray(h.args) ? h.args.map(String) : typeof h.command === 'string' ? shellWords(h.command) : [];
        const at = words.indexOf('--vault');
        if (at >= 0 && words[at + 1]) return { vault: userPath(projectDir, words[at + 1], env), from };
        const eq = words.find((w) => w.startsWith('--vault='));
        if (eq) return { vault: userPath(projectDir, eq.slice('--vault='.length), env), from };
      }
    }
  }
  for (const [i, data] of all.entries()) {
    const v = data && isRecord(data.env) ? data.env.TSM_VAULT : undefined;
    // `~/notes` is the home folder's, as tsm reads it everywhere (userPath): resolved as a relative path it
    // was "<project>/~/notes", and doctor stopped at "vault not found".
    if (typeof v === 'string' && v !== '') return { vault: userPath(projectDir, v, env), from: `TSM_VAULT in ${files[i]}` };
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

/** What to do when Claude Code cannot find `tsm` by name (`tsm doctor`, `tsm init --claude`). */
export const NOT_ON_PATH_FIX =
  'install tsm globally (`npm install -g the-space-memory`, or `npm link` in a checkout), or put the absolute path of bin/tsm in "command"';

/**
 * Whether an executable called `name` is on PATH, as a shell outside npm sees it: under `npx` or an npm
 * script (npm_command set) the node_modules/.bin folders npm put in front are left out, since Claude Code,
 * started from the user's shell, does not have them (`npx tsm init --claude` with tsm installed only in
 * the project found itself there and wired hooks that could not run).
 */
export function onPath(name: string, env: NodeJS.ProcessEnv): boolean {
  const exts = process.platform === 'win32' ? (env.PATHEXT ?? '.EXE;.CMD;.BAT').split(';') : [''];
  const fromNpm = (dir: string) => env.npm_command !== undefined && /[\\/]node_modules[\\/]\.bin[\\/]?$/.test(dir);
  for (const dir of (env.PATH ?? '').split(delimiter)) {
    if (dir === '' || fromNpm(dir)) continue;
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
