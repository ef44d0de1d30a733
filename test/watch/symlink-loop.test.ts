import { mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createLoopTest } from '../../src/watch/symlink-loop.js';

const outside = mkdtempSync(join(tmpdir(), 'tsm-loop-out-'));
const dir = mkdtempSync(join(tmpdir(), 'tsm-loop-'));
mkdirSync(join(dir, 'a/b'), { recursive: true });
mkdirSync(join(dir, 'c'));
mkdirSync(join(outside, 'shared'));
symlinkSync('..', join(dir, 'a/b/up')); // → a
symlinkSync(dir, join(dir, 'root')); // → the vault
symlinkSync('../c', join(dir, 'a/to-c')); // → a sibling: no loop
symlinkSync(join(outside, 'shared'), join(dir, 'ext')); // → outside the vault: no loop
symlinkSync('../a', join(dir, 'c/to-a')); // c/to-a → a, and a/to-c → c: a loop of two links
symlinkSync(join(dir, 'missing'), join(dir, 'dangling'));
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
  rmSync(outside, { recursive: true, force: true });
});

describe('createLoopTest', () => {
  const isLoop = createLoopTest(dir);
  it('passes plain folders and the vault itself', () => {
    expect(isLoop(dir)).toBe(false);
    expect(isLoop(join(dir, 'a'))).toBe(false);
    expect(isLoop(join(dir, 'a/b'))).toBe(false);
  });
  it('passes links that lead somewhere new', () => {
    expect(isLoop(join(dir, 'a/to-c'))).toBe(false);
    expect(isLoop(join(dir, 'ext'))).toBe(false);
    expect(isLoop(join(dir, 'c/to-a'))).toBe(false);
  });
  it('stops links back into their own ancestors', () => {
    expect(isLoop(join(dir, 'a/b/up'))).toBe(true);
    expect(isLoop(join(dir, 'root'))).toBe(true);
  });
  it('stops loops made of several links', () => {
    expect(isLoop(join(dir, 'a/to-c/to-a'))).toBe(true);
    expect(isLoop(join(dir, 'c/to-a/to-c'))).toBe(true);
  });
  it('passes paths that do not exist (nothing to walk into)', () => {
    expect(isLoop(join(dir, 'dangling'))).toBe(false);
    expect(isLoop(join(dir, 'nope'))).toBe(false);
  });
});
