import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { localTime } from '../../src/core/days.js';
import { formatLogLine, hookLogPath, writeHookLog } from '../../src/hooks/hook-log.js';
import { HookVaultError, resolveHookVault } from '../../src/hooks/hook-vault.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'tsm-hooklog-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('hook log', () => {
  it('formats one line: time, event, short session id, message with newlines flattened', () => {
    // (The time is local, with its offset: test/core/local-time.test.ts.)
    const at = new Date('2026-11-22T03:00:00Z');
    const line = formatLogLine('Stop', '3f9a2c1e-7b4d-4e21', 'first\n  second\r\nthird', at);
    expect(line).toBe(`${localTime(at)} Stop session=3f9a2c1e: first second third\n`);
    expect(formatLogLine(null, null, 'x', new Date(0))).toBe(`${localTime(0)} hook: x\n`);
  });

  it('bounds the event (64 characters) and the message (2,000), never splitting a code point', () => {
    const line = formatLogLine('E'.repeat(100), null, `${'m'.repeat(1999)}😀 and more`, new Date(0));
    expect(line).toBe(`${localTime(0)} ${'E'.repeat(64)}… (100 characters): ${'m'.repeat(1999)}… (2010 characters)\n`);
  });

  it('creates .tsm/ and the log on demand, and appends', () => {
    const errors: string[] = [];
    expect(writeHookLog(dir, 'one\n', (s) => errors.push(s))).toBe(true);
    expect(writeHookLog(dir, 'two\n', (s) => errors.push(s))).toBe(true);
    expect(readFileSync(hookLogPath(dir), 'utf8')).toBe('one\ntwo\n');
    expect(errors).toEqual([]);
  });

  it('moves a log past 512 KB to hook.log.1 before appending', () => {
    mkdirSync(join(dir, '.tsm'));
    writeFileSync(hookLogPath(dir), 'x'.repeat(600 * 1024));
    writeHookLog(dir, 'fresh\n', () => {});
    expect(readFileSync(hookLogPath(dir), 'utf8')).toBe('fresh\n');
    expect(readFileSync(`${hookLogPath(dir)}.1`, 'utf8').length).toBe(600 * 1024);
  });

  it('writes to stderr when there is no vault or the log cannot be written', () => {
    const errors: string[] = [];
    expect(writeHookLog(null, 'no vault\n', (s) => errors.push(s))).toBe(false);
    writeFileSync(join(dir, '.tsm'), 'a file');
    expect(writeHookLog(dir, 'blocked\n', (s) => errors.push(s))).toBe(false);
    expect(errors).toEqual(['tsm hook: no vault\n', 'tsm hook: blocked\n']);
  });

  it('never brings back a vault deleted meanwhile: the line goes to stderr, no folder is made', () => {
    const gone = join(dir, 'vault');
    const errors: string[] = [];
    expect(writeHookLog(gone, 'late\n', (s) => errors.push(s))).toBe(false);
    expect(existsSync(gone)).toBe(false);
    expect(errors).toEqual(['tsm hook: late\n']);
  });
});

describe('resolveHookVault', () => {
  it('prefers --vault, then $TSM_VAULT, then the nearest .tsm/ above cwd', () => {
    const a = join(dir, 'a');
    const b = join(dir, 'b');
    mkdirSync(join(a, '.tsm'), { recursive: true });
    mkdirSync(join(b, 'x', 'y'), { recursive: true });
    mkdirSync(join(b, '.tsm'));
    expect(resolveHookVault({ vaultFlag: a, env: { TSM_VAULT: b }, cwd: join(b, 'x') })).toBe(a);
    expect(resolveHookVault({ env: { TSM_VAULT: b }, cwd: join(a) })).toBe(b);
    expect(resolveHookVault({ env: { TSM_VAULT: '' }, cwd: join(b, 'x', 'y') })).toBe(b);
  });

  it('resolves a relative --vault against cwd', () => {
    mkdirSync(join(dir, 'notes'));
    expect(resolveHookVault({ vaultFlag: 'notes', env: {}, cwd: dir })).toBe(join(dir, 'notes'));
  });

  // One rule for every relative path (README, "Configuration"): the process's folder, as for --db and as
  // `tsm search` reads the same $TSM_VAULT; the session's folder (the payload's cwd) only finds a .tsm/ above it.
  it('reads a relative --vault or $TSM_VAULT from the process folder, not from the session folder', () => {
    mkdirSync(join(dir, 'notes'));
    mkdirSync(join(dir, 'proj', 'sub'), { recursive: true });
    const session = join(dir, 'proj', 'sub');
    const processCwd = join(dir, 'proj');
    expect(resolveHookVault({ env: { TSM_VAULT: '../notes' }, cwd: session, processCwd })).toBe(join(dir, 'notes'));
    expect(resolveHookVault({ vaultFlag: '../notes', env: {}, cwd: session, processCwd })).toBe(join(dir, 'notes'));
  });

  it('returns null without any vault, and ignores a .tsm that is a file', () => {
    writeFileSync(join(dir, '.tsm'), 'not a folder');
    expect(resolveHookVault({ env: {}, cwd: dir })).toBeNull();
  });

  it('reports a named vault that does not exist', () => {
    expect(() => resolveHookVault({ vaultFlag: join(dir, 'gone'), env: {}, cwd: dir })).toThrow(HookVaultError);
    expect(() => resolveHookVault({ env: { TSM_VAULT: join(dir, 'gone') }, cwd: dir })).toThrow(/vault not found/);
    expect(existsSync(join(dir, 'gone'))).toBe(false);
  });
});
