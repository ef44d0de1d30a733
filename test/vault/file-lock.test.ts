import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isLockHeld, LockTimeoutError, withFileLock } from '../../src/vault/file-lock.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'tsm-lock-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('withFileLock', () => {
  it('runs one holder at a time, in turn', async () => {
    const lock = join(dir, 'sub', 'x.lock');
    const events: string[] = [];
    const job = (name: string) =>
      withFileLock(lock, { vault: dir, timeoutMs: 5000 }, async () => {
        events.push(`${name}+`);
        await new Promise((r) => setTimeout(r, 60));
        events.push(`${name}-`);
        return name;
      });
    expect(await Promise.all([job('a'), job('b'), job('c')])).toEqual(['a', 'b', 'c']);
    for (let i = 0; i < events.length; i += 2) expect(events[i].slice(0, -1)).toBe(events[i + 1].slice(0, -1));
    expect(existsSync(lock)).toBe(false);
  });

  it('releases the lock when the work throws', async () => {
    const lock = join(dir, 'x.lock');
    await expect(withFileLock(lock, { vault: dir, timeoutMs: 1000 }, () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(existsSync(lock)).toBe(false);
  });

  it('gives up after the timeout while a live process holds it', async () => {
    const lock = join(dir, 'x.lock');
    writeFileSync(lock, String(process.pid));
    await expect(withFileLock(lock, { vault: dir, timeoutMs: 100 }, () => 1)).rejects.toThrow(LockTimeoutError);
    expect(existsSync(lock)).toBe(true);
  });

  it('waits for a lock its live holder took, which holds its bare pid (as an older tsm reads it)', async () => {
    const lock = join(dir, 'x.lock');
    await withFileLock(lock, { vault: dir, timeoutMs: 1000 }, async () => {
      expect(readFileSync(lock, 'utf8')).toBe(String(process.pid));
      await expect(withFileLock(lock, { vault: dir, timeoutMs: 100 }, () => 1)).rejects.toThrow(LockTimeoutError);
    });
  });

  // A holder killed (a hook at Claude Code's 30 s limit), its pid then given to another process: by the pid
  // alone the lock was taken for held until staleMs (120 s; 6 h for the sync lock).
  it.skipIf(!existsSync('/proc/self/stat'))('takes over a lock whose pid another process has now (Linux: it started after the lock)', async () => {
    const lock = join(dir, 'x.lock');
    const other = spawn('sleep', ['30']);
    try {
      writeFileSync(lock, String(other.pid));
      const minuteAgo = new Date(Date.now() - 60_000);
      utimesSync(lock, minuteAgo, minuteAgo); // taken a minute ago, by a process gone since
      expect(await withFileLock(lock, { vault: dir, timeoutMs: 1000 }, () => 'mine')).toBe('mine');
      // The same pid in a lock taken after it started is its own: held.
      writeFileSync(lock, String(other.pid));
      await expect(withFileLock(lock, { vault: dir, timeoutMs: 100 }, () => 1)).rejects.toThrow(LockTimeoutError);
    } finally {
      other.kill('SIGKILL');
    }
  });

  it('takes over a lock whose process is gone', async () => {
    const lock = join(dir, 'x.lock');
    writeFileSync(lock, '2147483646'); // no such pid
    expect(await withFileLock(lock, { vault: dir, timeoutMs: 1000 }, () => 'mine')).toBe('mine');
  });

  it('takes over an empty lock left by a holder that died before writing its pid', async () => {
    const lock = join(dir, 'x.lock');
    writeFileSync(lock, '');
    const old = new Date(Date.now() - 5_000);
    utimesSync(lock, old, old);
    expect(await withFileLock(lock, { vault: dir, timeoutMs: 1000 }, () => 'mine')).toBe('mine');
  });

  it('waits for an empty lock just created (its holder is writing its pid)', async () => {
    const lock = join(dir, 'x.lock');
    writeFileSync(lock, '');
    await expect(withFileLock(lock, { vault: dir, timeoutMs: 100 }, () => 1)).rejects.toThrow(LockTimeoutError);
  });

  it('takes over a lock older than staleMs', async () => {
    const lock = join(dir, 'x.lock');
    writeFileSync(lock, String(process.pid));
    const old = new Date(Date.now() - 600_000);
    utimesSync(lock, old, old);
    expect(await withFileLock(lock, { vault: dir, timeoutMs: 1000, staleMs: 60_000 }, () => 'mine')).toBe('mine');
  });
});

describe('isLockHeld', () => {
  it('is true for a lock of a live process, false for none, a dead pid or an old file', () => {
    const lock = join(dir, 'sync.lock');
    expect(isLockHeld(lock)).toBe(false);
    writeFileSync(lock, String(process.pid));
    expect(isLockHeld(lock)).toBe(true);
    utimesSync(lock, new Date(0), new Date(0));
    expect(isLockHeld(lock, 60_000)).toBe(false);
    writeFileSync(lock, '999999999');
    expect(isLockHeld(lock)).toBe(false);
  });
});
