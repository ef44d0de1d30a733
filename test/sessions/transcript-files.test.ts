import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { findTranscripts } from '../../src/sessions/transcript-files.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'tsm-transcripts-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function files(rels: string[]): void {
  for (const rel of rels) {
    mkdirSync(join(dir, rel, '..'), { recursive: true });
    writeFileSync(join(dir, rel), '{}\n');
  }
}

describe('findTranscripts', () => {
  it('walks folders for .jsonl transcripts, skipping sub-agent ones, in name order', () => {
    files([
      'projects/b/2222.jsonl',
      'projects/a/1111.jsonl',
      'projects/a/agent-af1ff21.jsonl',
      'projects/a/1111/subagents/agent-x.jsonl',
      'projects/a/notes.txt',
      'projects/.hidden/3333.jsonl',
    ]);
    const r = findTranscripts(['projects'], dir);
    expect(r.problems).toEqual([]);
    expect(r.files).toEqual([join(dir, 'projects/a/1111.jsonl'), join(dir, 'projects/b/2222.jsonl')]);
  });

  it('reads a file named explicitly, whatever its name, once', () => {
    files(['x/agent-1.jsonl']);
    const r = findTranscripts(['x/agent-1.jsonl', join(dir, 'x/agent-1.jsonl')], dir);
    expect(r.files).toEqual([join(dir, 'x/agent-1.jsonl')]);
  });

  it('reports missing paths and empty folders, and keeps the rest', () => {
    files(['ok/1.jsonl']);
    mkdirSync(join(dir, 'empty'));
    const r = findTranscripts(['nope.jsonl', 'empty', 'ok'], dir);
    expect(r.files).toEqual([join(dir, 'ok/1.jsonl')]);
    expect(r.problems).toEqual([
      { arg: 'nope.jsonl', message: 'no such file or folder' },
      { arg: 'empty', message: 'no .jsonl transcripts in this folder' },
    ]);
  });

  it('does not follow a symlinked folder (no loops)', () => {
    files(['root/1.jsonl']);
    symlinkSync(join(dir, 'root'), join(dir, 'root', 'loop'));
    expect(findTranscripts(['root'], dir).files).toEqual([join(dir, 'root/1.jsonl')]);
  });
});
