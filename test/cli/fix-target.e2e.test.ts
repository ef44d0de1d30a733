// The commands an error or a fix tells the user to run carry the vault it was given (src/cli/fix-target.ts):
// run where the user is, a bare `tsm index` or `tsm watch` made the current folder a vault instead.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { tsm } from '../helpers/cli.js';

const root = mkdtempSync(join(tmpdir(), 'tsm-fix-target-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** A vault with `.tsm/` (so no command builds its index unasked) and one note, and a folder that is no vault. */
function place(name: string): { vault: string; elsewhere: string } {
  const vault = join(root, name);
  mkdirSync(join(vault, '.tsm'), { recursive: true });
  writeFileSync(join(vault, 'a.md'), '# A\n\nwalrus\n');
  const elsewhere = join(root, `${name}-elsewhere`);
  mkdirSync(elsewhere, { recursive: true });
  return { vault, elsewhere };
}

describe('a fix names the vault it was given', () => {
  it('from another folder, "run `tsm index`" carries --vault, quoted for the shell', () => {
    const { vault, elsewhere } = place('my notes ノート');
    const r = tsm(['status', '--vault', vault], { cwd: elsewhere });
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(`tsm: no index at ${join(vault, '.tsm', 'index.db')}: run \`tsm index --vault '${vault}'\` first\n`);
    // Followed as written, from where the user is, it indexes that vault and nothing else.
    expect(tsm(['index', '--vault', vault], { cwd: elsewhere }).code).toBe(0);
    expect(tsm(['status', '--vault', vault], { cwd: elsewhere }).code).toBe(0);
  });

  it("doctor's fixes carry --vault and --db too, in text and JSON", () => {
    const { vault, elsewhere } = place('plain');
    const db = join(root, 'other.db');
    const text = tsm(['doctor', '--vault', vault, '--db', db], { cwd: elsewhere });
    expect(text.stdout).toContain(`fix: run \`tsm index --vault ${vault} --db ${db}\``);
    const json = JSON.parse(tsm(['doctor', '--vault', vault, '--json'], { cwd: elsewhere }).stdout);
    expect(json.problems.find((p: { check: string }) => p.check === 'index').fix).toBe(`run \`tsm index --vault ${vault}\``);
    expect(json.problems.find((p: { check: string }) => p.check === 'watcher').fix).toContain(`run \`tsm watch --vault ${vault}\` in the background`);
    // A command only named, not to be run, is left as written.
    expect(json.problems.find((p: { check: string }) => p.check === 'watcher').message).toBe('no `tsm watch` is running for this vault');
  });

  it('inside the vault, or with the vault in $TSM_VAULT, the command is left as it is', () => {
    const { vault, elsewhere } = place('inside');
    expect(tsm(['status', '--vault', vault], { cwd: join(vault) }).stderr).toContain('run `tsm index` first');
    expect(tsm(['status'], { cwd: elsewhere, env: { TSM_VAULT: vault } }).stderr).toContain('run `tsm index` first');
  });
});
