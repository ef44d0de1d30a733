// Where Claude Code keeps its settings and MCP servers, and how tsm reads and writes those JSON files:
// never clobbering (a file that is not valid JSON is a ConfigError and is left as it is), atomically, and
// keeping the file's mode. Used by `tsm init --claude` (claude-setup.ts) and `tsm doctor` (claude-check.ts).
import { chmodSync, existsSync, mkdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { isNoWrite, machineShortOf } from '../core/machine-limits.js';
import { ConfigError } from '../vault/config.js';
import { realPathOr } from '../vault/paths.js';
import { readUtf8RegularFile } from '../vault/file-kind.js';

export type Json = Record<string, unknown>;
export const isRecord = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

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
  return realPathOr(projectDir);
}

export interface JsonFile {
  data: Json;
  exists: boolean;
}

export function readJsonObject(path: string): JsonFile {
  if (!existsSync(path)) return { data: {}, exists: false };
  let text: string;
  try {
    // Opened as a plain file or not at all: a FIFO there blocked `tsm doctor` and `tsm init --claude` for good.
    text = readUtf8RegularFile(path);
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

export function readJsonOrNull(path: string): Json | null {
  try {
    return readJsonObject(path).data;
  } catch {
    return null;
  }
}

/**
 * Atomic (Claude Code may read the file at any moment), and keeping the file's mode: Claude Code's own
 * config is private (0600) and must stay so. A symlinked file (a dotfile manager's) is written where it
 * leads: a rename over the link itself made it a plain file, and the file it pointed to never changed.
 */
export function writeJson(linkPath: string, data: Json): void {
  const path = realPathOr(linkPath);
  let mode = 0o644;
  try {
    mode = statSync(path).mode & 0o777;
  } catch {
    if (basename(linkPath) === '.claude.json') mode = 0o600;
  }
  const temp = join(dirname(path), `.${basename(path)}.${process.pid}.tmp`);
  try {
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(temp, `${JSON.stringify(data, null, 2)}\n`, { mode });
    chmodSync(temp, mode);
    renameSync(temp, path);
  } catch (err) {
    try {
      rmSync(temp, { force: true });
    } catch {
      // Where the temp file could not be made, removing it fails too (a home this user may not enter:
      // EACCES on its lstat); that error hid the one that says why, and went out as a stack trace.
    }
    const cause = machineShortOf(err) ?? (err as Error).message;
    const fix = isNoWrite(err) ? ': make it and its folder writable for you' : '';
    throw new ConfigError(`cannot write ${path}: ${cause}${fix}`);
  }
}
