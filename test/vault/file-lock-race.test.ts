// Two processes that judge the same lock stale at once (its holder was killed) must not both take it.
// Before, each removed the lock it had judged stale, so one could remove the lock the other had just
// taken, and both ran: two ingests of one transcript at once, the later overwriting the note with an older
// view. The interleaving is made deterministic here: when this process is about to remove the stale lock,
// a real second process (lock-holder.ts, bundled from the same source) is let run until it has taken the
// lock, or has waited a second without getting it; then the removal goes ahead.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

const hook: { beforeRemove?: (path: string) => void } = {};
vi.mock('node:fs', async (importOriginal) => {
  const fs = await importOriginal<typeof import('node:fs')>();
  const rmSync: typeof fs.rmSync = (path, opts) => {
    hook.beforeRemove?.(String(path));
    fs.rmSync(path, opts);
  };
  return { ...fs, default: { ...fs, rmSync }, rmSync };
});
const { withFileLock } = await import('../../src/vault/file-lock.js');

const DEAD_PID = '2147483646'; // no such process
let dir: string;
let holder: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'tsm-lock-race-'));
  holder = join(dir, 'lock-holder.mjs');
  await build({
    entryPoints: [resolve(dirname(fileURLToPath(import.meta.url)), 'lock-holder.ts')],
    outfile: holder,
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    logLevel: 'silent',
  });
}, 60_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Blocks this process (a second process runs meanwhile) for `ms`. */
const sleepSync = (ms: number) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

describe('taking over a stale lock', () => {
  it('two processes that judged it stale at once never hold it together', async () => {
    const vault = join(dir, 'vault');
    const lock = join(vault, '.tsm', 'sessions', 't.lock');
    const log = join(dir, 'log');
    mkdirSync(dirname(lock), { recursive: true });
    writeFileSync(log, '');
    const lines = () => readFileSync(log, 'utf8').split('\n').filter(Boolean);
    let other: ReturnType<typeof spawn> | undefined;
    hook.beforeRemove = (path) => {
      if (path !== lock || other || !existsSync(lock) || readFileSync(lock, 'utf8') !== DEAD_PID) return;
      other = spawn(process.execPath, [holder, lock, vault, log, '1500'], { stdio: 'ignore' });
      const pid = other.pid;
      let tried: number | null = null;
      for (const end = Date.now() + 20_000; Date.now() < end; sleepSync(10)) {
        const l = lines();
        if (l.includes(`in ${pid}`)) break;
        if (tried === null && l.includes(`try ${pid}`)) tried = Date.now();
        if (tried !== null && Date.now() - tried > 1_000) break;
      }
    };
    try {
      writeFileSync(lock, DEAD_PID);
      await withFileLock(lock, { vault, timeoutMs: 20_000 }, async () => {
        writeFileSync(log, `in ${process.pid}\n`, { flag: 'a' });
        await new Promise((r) => setTimeout(r, 500));
        writeFileSync(log, `out ${process.pid}\n`, { flag: 'a' });
      });
    } finally {
      hook.beforeRemove = undefined;
    }
    expect(other, 'the stale lock was never removed').toBeDefined();
    await new Promise((r) => (other!.exitCode !== null ? r(null) : other!.once('exit', r)));
    expect(other!.exitCode).toBe(0);
    // Holders one after the other: every `in` is followed by its own `out`.
    const held = lines().filter((l) => !l.startsWith('try '));
    expect(held).toHaveLength(4);
    for (let i = 0; i < held.length; i += 2) expect(held[i + 1], held.join(', ')).toBe(held[i].replace('in ', 'out '));
    expect(existsSync(lock)).toBe(false);
  });
});
