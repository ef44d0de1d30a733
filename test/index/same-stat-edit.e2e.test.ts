// An edit that keeps a note's size and mtime (a tool that restores the mtime; two same-size saves within
// the file system's time granularity) is still seen: its ctime changed. A new ctime alone is no update.
import { chmodSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { makeVault, tsm } from '../helpers/cli.js';

let v: { dir: string; cleanup: () => void };
const TIME = new Date('2026-01-01T00:00:00Z');
beforeEach(() => {
  v = makeVault({ 'a.md': '# A\n\nalpha words\n', 'b.md': '# B\n\nbravo words\n' });
  for (const f of ['a.md', 'b.md']) utimesSync(join(v.dir, f), TIME, TIME);
});
afterEach(() => v.cleanup());

function sameSizeSameMtimeEdit(rel: string, from: string, to: string): void {
  const abs = join(v.dir, rel);
  const before = statSync(abs);
  writeFileSync(abs, `# ${rel[0].toUpperCase()}\n\n${to} words\n`);
  expect(statSync(abs).size).toBe(before.size);
  utimesSync(abs, TIME, TIME);
  expect(statSync(abs).mtimeMs).toBe(before.mtimeMs);
  expect(from.length).toBe(to.length);
}

it('tsm index sees it', () => {
  expect(tsm(['index'], { cwd: v.dir }).code).toBe(0);
  sameSizeSameMtimeEdit('a.md', 'alpha', 'omega');
  expect(tsm(['index'], { cwd: v.dir }).stdout).toMatch(/^0 added, 1 updated, 0 removed, 1 unchanged/);
  expect(tsm(['search', 'omega', '-f', 'json'], { cwd: v.dir }).stdout).toContain('a.md');
});

it('single paths (the watcher, --files-from-stdin) see it', () => {
  expect(tsm(['index'], { cwd: v.dir }).code).toBe(0);
  sameSizeSameMtimeEdit('b.md', 'bravo', 'delta');
  expect(tsm(['index', '--files-from-stdin'], { cwd: v.dir, input: 'b.md\n' }).stdout).toMatch(/^0 added, 1 updated/);
  expect(tsm(['search', 'delta', '-f', 'json'], { cwd: v.dir }).stdout).toContain('b.md');
});

it('a new ctime alone (chmod) is found unchanged by the hash', () => {
  expect(tsm(['index'], { cwd: v.dir }).code).toBe(0);
  chmodSync(join(v.dir, 'a.md'), 0o600);
  expect(tsm(['index'], { cwd: v.dir }).stdout).toMatch(/^0 added, 0 updated, 0 removed, 2 unchanged/);
});
