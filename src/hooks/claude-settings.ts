// Where Claude Code keeps its settings and MCP servers. How tsm reads and writes those files is
// settings-file.ts. Used by `tsm init --claude` (claude-setup.ts) and `tsm doctor` (claude-check.ts).
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileKind } from '../vault/file-kind.js';
import { realPathOr } from '../vault/paths.js';

export type Json = Record<string, unknown>;
export const isRecord = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * The project Claude Code runs tsm in: $CLAUDE_PROJECT_DIR (Claude Code sets it for its hooks), else the
 * current folder; `problem` says why it is no folder, else null. A variable left naming a folder that is
 * gone (a typo, a shell of another machine's) made `tsm init --claude` create that folder and wire it.
 */
export function claudeProject(env: NodeJS.ProcessEnv = process.env, cwd = process.cwd()): { dir: string; problem: string | null } {
  const dir = resolve(cwd, env.CLAUDE_PROJECT_DIR || '.');
  const problem = env.CLAUDE_PROJECT_DIR && fileKind(dir) !== 'directory' ? `$CLAUDE_PROJECT_DIR names ${dir}, which is not a folder` : null;
  return { dir, problem };
}

export function settingsPath(projectDir: string): string {
  return join(projectDir, '.claude', 'settings.json');
}

export function localSettingsPath(projectDir: string): string {
  return join(projectDir, '.claude', 'settings.local.json');
}

export function mcpPath(projectDir: string): string {
  return join(projectDir, '.mcp.json');
}

/**
 * Claude Code's own config file (user and local-scope MCP servers, per-project state). A CLAUDE_CONFIG_DIR
 * naming no folder is made, parents too, by `tsm init --claude` as by Claude Code itself: 2.0.12, 2.0.76 and
 * 2.1.332 each created $CLAUDE_CONFIG_DIR/a/b/typo with its .claude.json on `claude mcp list` (measured
 * 2026-11-29), so refusing it would only stop the setup Claude Code then reads.
 */
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
