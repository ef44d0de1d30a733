// `tsm doctor`: the Claude Code wiring of a project in every scope Claude Code reads (user, shared and local
// settings, an enabled tsm plugin; .mcp.json and ~/.claude.json for MCP), and the vault that wiring names.
import { accessSync, constants } from 'node:fs';
import { delimiter, join, resolve } from 'node:path';
import type { DoctorProblem } from '../core/types.js';
import { HOOK_EVENTS, type HookEvent } from './payload.js';
import {
  claudeConfigPath,
  isRecord,
  localSettingsPath,
  mcpPath,
  projectKey,
  readJsonObject,
  readJsonOrNull,
  settingsPath,
  userSettingsPath,
  type Json,
} from './claude-settings.js';
import { handlersOf, HOOK_TIMEOUT_S, isTsmHook, isTsmServer } from './wiring.js';

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
