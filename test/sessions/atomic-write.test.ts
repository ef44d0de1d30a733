// writeFileAtomic (src/sessions/files.ts): a failed write tells its own error, even when removing its
// temporary file fails too (that error took its place before, and the cause was lost).
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { writeFileAtomic } from '../../src/sessions/files.js';

const root = mkdtempSync(join(tmpdir(), 'tsm-atomic-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('writeFileAtomic', () => {
  it('a failure between the temp file and the rename: the error is the write’s, the target untouched', () => {
    const vault = join(root, 'v1');
    mkdirSync(join(vault, 'sessions'), { recursive: true });
    const target = join(vault, 'sessions', 'note.md');
    writeFileSync(target, 'before\n');
    expect(() =>
      writeFileAtomic(vault, target, 'after\n', () => {
        throw new Error('the state could not be written');
      }),
    ).toThrow('the state could not be written');
    expect(readdirSync(join(vault, 'sessions'))).toEqual(['note.md']);
  });

  it('when removing the temp file fails as well, the write’s error still comes out', () => {
    const vault = join(root, 'v2');
    const folder = join(vault, 'sessions');
    mkdirSync(folder, { recursive: true });
    const target = join(folder, 'note.md');
    expect(() =>
      writeFileAtomic(vault, target, 'after\n', () => {
        // The temp file turned into a folder with a file in it: rmSync (force, not recursive) throws on it.
        const temp = join(folder, readdirSync(folder).find((f) => f.endsWith('.tmp'))!);
        rmSync(temp);
        mkdirSync(temp);
        writeFileSync(join(temp, 'x'), '');
        throw new Error('the real cause');
      }),
    ).toThrow('the real cause');
    expect(existsSync(target)).toBe(false);
  });
});
