// Shared by the in-process `tsm hook` tests: a fresh indexed vault per test, requests, and strict parsing
// of what Claude Code would read.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, expect } from 'vitest';
import { Deadline } from '../../src/hooks/deadline.js';
import type { HookOutcome, HookRequest } from '../../src/hooks/dispatch.js';
import { makeIndexedVault, type TestVault } from './fixture-index.js';

export const NOW = new Date('2026-11-21T12:00:00Z');
export const FIXTURES = join(import.meta.dirname, '..', 'sessions', 'fixtures');
export const ROOT = join(import.meta.dirname, '..', '..');

/** The current test's vault (tests may replace it with another made by makeIndexedVault). */
export const state: { vault: TestVault } = { vault: undefined as unknown as TestVault };

/** A fresh vault with the sample index for every test of the calling file. */
export function useFreshVault(): void {
  beforeEach(async () => {
    state.vault = await makeIndexedVault();
  });
  afterEach(() => state.vault.cleanup());
}

export function request(payload: unknown, extra: Partial<HookRequest> = {}): HookRequest {
  return {
    stdin: typeof payload === 'string' ? payload : JSON.stringify(payload),
    env: {},
    cwd: state.vault.dir,
    deadline: new Deadline(5000, performance.now()),
    now: NOW,
    ...extra,
  };
}

export const prompt = (text: string, extra: Record<string, unknown> = {}) => ({
  session_id: 'sess-1',
  transcript_path: '/nowhere/sess-1.jsonl',
  cwd: state.vault.dir,
  hook_event_name: 'UserPromptSubmit',
  prompt: text,
  ...extra,
});

export function logLines(dir = state.vault.dir): string[] {
  const path = join(dir, '.tsm', 'hook.log');
  return existsSync(path) ? readFileSync(path, 'utf8').split('\n').filter(Boolean) : [];
}

/** The JSON Claude Code reads (checked), and the context inside it. */
export function injected(out: HookOutcome, event = 'UserPromptSubmit'): string {
  expect(out.exitCode).toBe(0);
  const json = JSON.parse(out.stdout) as { hookSpecificOutput: { hookEventName: string; additionalContext: string } };
  expect(Object.keys(json)).toEqual(['hookSpecificOutput']);
  expect(json.hookSpecificOutput.hookEventName).toBe(event);
  expect(out.stdout.length).toBeLessThanOrEqual(10_000);
  return json.hookSpecificOutput.additionalContext;
}

export function silent(out: HookOutcome): void {
  expect(out.exitCode).toBe(0);
  expect(out.stdout).toBe('');
}

/** Another process holding the index: `mode` 'exclusive' keeps even WAL readers out. */
export function holdLock(db: string, mode: 'transaction' | 'exclusive'): Promise<ChildProcess> {
  const script = `
    const Database = require('better-sqlite3');
    const db = new Database(process.argv[1]);
    ${mode === 'exclusive' ? "db.pragma('locking_mode = EXCLUSIVE');" : ''}
    db.exec('BEGIN EXCLUSIVE');
    db.prepare("INSERT OR REPLACE INTO meta (key, value) VALUES ('lock_test', '1')").run();
    process.stdout.write('locked\\n');
    process.stdin.on('data', () => {}).on('end', () => { db.exec('ROLLBACK'); db.close(); });
  `;
  const proc = spawn(process.execPath, ['-e', script, db], { cwd: ROOT, stdio: ['pipe', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    proc.stdout?.on('data', (d: Buffer) => d.toString().includes('locked') && resolve(proc));
    proc.on('exit', (code) => reject(new Error(`lock holder exited with ${code}`)));
  });
}

export function release(proc: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    proc.removeAllListeners('exit');
    proc.on('exit', () => resolve());
    proc.stdin?.end();
  });
}
