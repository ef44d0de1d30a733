// `tsm init --claude` and `tsm doctor`: merge tsm's hooks into <project>/.claude/settings.json and its MCP
// server into <project>/.mcp.json, never clobbering what is there; and check that wiring later.
import { accessSync, constants, existsSync, readFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import type { DoctorProblem } from '../core/types.js';
import { writeFileAtomic } from '../sessions/files.js';
import { ConfigError, isInside } from '../vault/config.js';
import { HOOK_EVENTS, type HookEvent } from './payload.js';
import { handlersOf, hookEntry, HOOK_TIMEOUT_S, isTsmHook, isTsmServer, mcpServerEntry } from './wiring.js';

type Json = Record<string, unknown>;
const isRecord = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

export function settingsPath(projectDir: string): string {
  return join(projectDir, '.claude', 'settings.json');
}

export function mcpPath(projectDir: string): string {
  return join(projectDir, '.mcp.json');
}

/**
 * Wires tsm into a Claude Code project; returns one message per file it changed or found in place.
 * Idempotent; other hooks and servers are kept; a file that is not valid JSON is left untouched and
 * reported as a ConfigError (before anything is written).
 */
export function wireClaudeCode(projectDir: string, vault: string): string[] {
  // `tsm hook` finds a vault at or above the project by itself; any other vault must be named.
  const extra = isInside(vault, projectDir) ? [] : ['--vault', vault];
  const settingsFile = settingsPath(projectDir);
  const mcpFile = mcpPath(projectDir);
  const settings = readJsonObject(settingsFile);
  const mcp = readJsonObject(mcpFile);
  const messages: string[] = [];

  // Both merges (and so every check) happen before either file is written.
  const hooks = mergeHooks(settings.data, settingsFile, extra);
  const server = mergeServer(mcp.data, mcpFile, extra);
  if (hooks.changed) {
    writeJson(settingsFile, settings.data);
    const parts = [hooks.added.length ? `added ${hooks.added.join(', ')}` : '', hooks.updated.length ? `updated ${hooks.updated.join(', ')}` : ''];
    messages.push(`${settingsFile}: tsm hooks ${parts.filter(Boolean).join('; ')}`);
  } else {
    messages.push(`${settingsFile}: tsm hooks already in place`);
  }

  if (server.changed) writeJson(mcpFile, mcp.data);
  messages.push(server.message);
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

function writeJson(path: string, data: Json): void {
  writeFileAtomic(path, `${JSON.stringify(data, null, 2)}\n`);
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
    const mine = findExecHook(groups);
    if (mine) {
      // Keep what the user added to our entry (e.g. a statusMessage); set command, args and timeout.
      const current = mine.group.hooks[mine.index] as Json;
      const merged = { ...current, ...want };
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

/** Our exec-form hook (`tsm` with args starting `hook`), which we may update in place. */
function findExecHook(groups: unknown[]): { group: { hooks: unknown[] }; index: number } | null {
  for (const group of groups) {
    if (!isRecord(group) || !Array.isArray(group.hooks)) continue;
    const index = group.hooks.findIndex((h) => isTsmHook(h) && isRecord(h) && Array.isArray(h.args));
    if (index >= 0) return { group: group as { hooks: unknown[] }, index };
  }
  return null;
}

function mergeServer(mcp: Json, file: string, extra: string[]): { changed: boolean; message: string } {
  if (mcp.mcpServers !== undefined && !isRecord(mcp.mcpServers)) {
    throw new ConfigError(`${file}: "mcpServers" must be an object; the file was left as it is`);
  }
  const servers = (mcp.mcpServers as Json | undefined) ?? {};
  const want = mcpServerEntry(extra);
  const current = servers.tsm;
  if (current !== undefined && !isTsmServer(current)) {
    const other = Object.entries(servers).find(([, v]) => isTsmServer(v));
    if (other) return { changed: false, message: `${file}: tsm MCP server already in place (as "${other[0]}")` };
    return { changed: false, message: `${file}: kept the existing "tsm" server, which is not \`tsm serve\`; add \`tsm serve\` under another name to use tsm's MCP tools` };
  }
  if (current === undefined) {
    const other = Object.entries(servers).find(([, v]) => isTsmServer(v));
    if (other) return { changed: false, message: `${file}: tsm MCP server already in place (as "${other[0]}")` };
  } else if (JSON.stringify({ command: (current as Json).command, args: (current as Json).args }) === JSON.stringify(want)) {
    return { changed: false, message: `${file}: tsm MCP server already in place` };
  }
  servers.tsm = isRecord(current) ? { ...current, ...want } : want;
  mcp.mcpServers = servers;
  return { changed: true, message: `${file}: ${current === undefined ? 'added' : 'updated'} MCP server "tsm" (tsm serve)` };
}

/** `tsm doctor`: is this project wired, and can Claude Code run `tsm` at all? */
export function checkClaudeWiring(projectDir: string, env: NodeJS.ProcessEnv = process.env): DoctorProblem[] {
  const problems: DoctorProblem[] = [];
  const fix = `run \`tsm init --claude\` in ${projectDir} (or install the tsm plugin from tsm's plugin/ folder)`;
  const handlers = new Map<HookEvent, unknown[]>(HOOK_EVENTS.map((e) => [e, []]));
  for (const file of [settingsPath(projectDir), join(projectDir, '.claude', 'settings.local.json')]) {
    let parsed: JsonFile;
    try {
      parsed = readJsonObject(file);
    } catch (err) {
      problems.push({ check: 'claude', severity: 'error', message: (err as Error).message, fix: `correct ${file}; Claude Code cannot read it either` });
      continue;
    }
    for (const event of HOOK_EVENTS) handlers.get(event)?.push(...handlersOf(parsed.data, event).filter(isTsmHook));
  }
  const missing = HOOK_EVENTS.filter((e) => (handlers.get(e) ?? []).length === 0);
  if (missing.length > 0) {
    problems.push({
      check: 'claude',
      severity: 'warning',
      message: `these Claude Code hooks do not run tsm in ${projectDir}: ${missing.join(', ')}`,
      fix,
    });
  }
  for (const [event, list] of handlers) {
    for (const h of list) {
      const timeout = isRecord(h) && typeof h.timeout === 'number' ? h.timeout : null;
      if (timeout !== null && timeout < HOOK_TIMEOUT_S[event] && event !== 'SessionEnd') {
        problems.push({
          check: 'claude',
          severity: 'warning',
          message: `the ${event} hook's timeout is ${timeout} s; tsm may be stopped before it answers`,
          fix: `raise it to ${HOOK_TIMEOUT_S[event]} s (\`tsm init --claude\` does)`,
        });
      }
    }
  }
  let mcp: JsonFile | null = null;
  try {
    mcp = readJsonObject(mcpPath(projectDir));
  } catch (err) {
    problems.push({ check: 'claude', severity: 'error', message: (err as Error).message, fix: `correct ${mcpPath(projectDir)}` });
  }
  if (mcp && !(isRecord(mcp.data.mcpServers) && Object.values(mcp.data.mcpServers).some(isTsmServer))) {
    problems.push({ check: 'claude', severity: 'info', message: `no \`tsm serve\` MCP server in ${mcpPath(projectDir)}`, fix });
  }
  const usesBareTsm = [...handlers.values()].flat().some((h) => isRecord(h) && typeof h.command === 'string' && /^tsm(\s|$)/.test(h.command.trim()));
  if (usesBareTsm && !onPath('tsm', env)) {
    problems.push({
      check: 'claude',
      severity: 'error',
      message: '`tsm` is not on PATH, so Claude Code cannot run the hooks',
      fix: 'install tsm globally (`npm install -g` in the tsm package, or `npm link`), or put the absolute path of bin/tsm in "command"',
    });
  }
  return problems;
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
