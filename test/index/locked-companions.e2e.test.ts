// The index's -wal and -shm files, when the user may not use them (left by a `sudo tsm`, or another user's
// `tsm watch`, or chmod'ed): tsm index, search and doctor name the file and its fix. They said only SQLite's
// "attempt to write a readonly database" or "unable to open database file", with "check the permissions of
// the file and its folder", which were fine. Run as `nobody` when the tests run as root (root may write
// anything), as the user otherwise.
import { spawnSync } from 'node:child_process';
import { chmodSync, chownSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeVault, ROOT, TSM } from '../helpers/cli.js';

const asRoot = process.getuid?.() === 0;
const runuser = asRoot && spawnSync('runuser', ['-u', 'nobody', '--', 'true']).status === 0;
const nobody = runuser ? Number(spawnSync('id', ['-u', 'nobody'], { encoding: 'utf8' }).stdout.trim()) : null;

let v: ReturnType<typeof makeVault>;
let db: string;
const run = (args: string[]) => {
  const cmd = runuser ? ['runuser', '-u', 'nobody', '--', process.execPath, TSM, ...args] : [process.execPath, TSM, ...args];
  const r = spawnSync(cmd[0], cmd.slice(1), { cwd: ROOT, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1', TSM_VAULT: undefined } });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
};

beforeEach(() => {
  v = makeVault({ 'a.md': '# a\n\nword\n' });
  db = join(v.dir, '.tsm', 'index.db');
  chmodSync(v.dir, 0o755);
  if (runuser) spawnSync('chown', ['-R', 'nobody', v.dir]);
  expect(run(['index', '--vault', v.dir]).code).toBe(0);
});
afterEach(() => {
  for (const s of ['-wal', '-shm']) rmSync(db + s, { force: true });
  v.cleanup();
});

/** Leaves `file` beside the index as a stopped writer would: there, of `owner` (this test's user by default), with `mode`. */
function leave(file: string, mode: number, owner?: number): void {
  writeFileSync(file, '');
  if (owner !== undefined) chownSync(file, owner, owner);
  chmodSync(file, mode);
}

describe.skipIf(asRoot && !runuser)('a -wal or -shm file the user may not use', () => {
  for (const suffix of ['-wal', '-shm']) {
    it(`tsm index names the ${suffix} file it may not write, and the fix: chmod when it is the user's`, () => {
      leave(db + suffix, 0o444, nobody ?? undefined);
      writeFileSync(join(v.dir, 'a.md'), '# a\n\nword changed\n');
      const r = run(['index', '--vault', v.dir]);
      expect(r.code).toBe(1);
      // It was "cannot write the index at …/index.db (attempt to write a readonly database): check the permissions of the file and its folder".
      expect(r.stderr).toBe(
        `tsm: cannot write the index at ${db}: SQLite keeps ${db}${suffix} beside it, which you may not write (attempt to write a readonly database): ` +
          `make it readable and writable for you (\`chmod u+rw ${db}${suffix}\`)\n`,
      );
      // A search reads beside it as before.
      expect(run(['search', 'word', '--vault', v.dir]).code).toBe(0);
    });
  }

  it('the index file itself read-only (chmod 444): search reads it, tsm index names the file and a fix that works, doctor warns', () => {
    chmodSync(db, 0o444);
    // A search leaves a -wal and -shm made with the index's mode (SQLite's way), read-only too.
    expect(run(['search', 'word', '--vault', v.dir]).code).toBe(0);
    writeFileSync(join(v.dir, 'a.md'), '# a\n\nword changed\n');
    const r = run(['index', '--vault', v.dir]);
    expect(r.code).toBe(1);
    // It named the -wal and `chmod u+rw` of it, which SQLite undid at the next open: `tsm index` failed the same way.
    const fix = `make it writable for you (\`chmod u+w ${db} ${db}-wal ${db}-shm\`), or give --db (or TSM_DB) an index of your own`;
    expect(r.stderr).toBe(`tsm: cannot write the index at ${db}: the file is not writable for you (attempt to write a readonly database): ${fix}\n`);
    const doctor = JSON.parse(run(['doctor', '--json', '--vault', v.dir]).stdout) as { problems: { check: string; severity: string; fix: string }[] };
    expect(doctor.problems.find((p) => p.check === 'index')).toMatchObject({ severity: 'warning', fix });
    // The fix it gives, done as the user: the next `tsm index` writes.
    for (const f of [db, `${db}-wal`, `${db}-shm`]) chmodSync(f, 0o644);
    const again = run(['index', '--vault', v.dir]);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toMatch(/1 updated/);
  });

  it('the index file unreadable (chmod 000): search, tsm index and doctor name it and the fix', () => {
    for (const s of ['-wal', '-shm']) rmSync(db + s, { force: true });
    chmodSync(db, 0o000);
    const search = run(['search', 'word', '--vault', v.dir]);
    expect(search.code).toBe(1);
    // It was "cannot open the index at …: unable to open database file", and `tsm index` said `chmod u+w`.
    const readFix = `make it readable for you (\`chmod u+r ${db}\`), or give --db (or TSM_DB) an index of your own`;
    expect(search.stderr).toBe(`tsm: cannot read the index at ${db}: the file is not readable for you (unable to open database file): ${readFix}\n`);
    const doctor = JSON.parse(run(['doctor', '--json', '--vault', v.dir]).stdout) as { problems: { check: string; fix: string }[] };
    expect(doctor.problems.find((p) => p.check === 'index')?.fix).toBe(readFix);
    const index = run(['index', '--vault', v.dir]);
    expect(index.code).toBe(1);
    expect(index.stderr).toContain(`the file is not readable for you (unable to open database file): make it readable and writable for you (\`chmod u+rw ${db}\`)`);
    chmodSync(db, 0o644);
    expect(run(['search', 'word', '--vault', v.dir]).code).toBe(0);
  });

  it("the index's folder not writable (chmod 555): tsm index names the folder, not 'the file and its folder'", () => {
    for (const s of ['-wal', '-shm']) rmSync(db + s, { force: true });
    const folder = join(v.dir, '.tsm');
    chmodSync(folder, 0o555);
    try {
      writeFileSync(join(v.dir, 'a.md'), '# a\n\nword changed\n');
      const r = run(['index', '--vault', v.dir]);
      expect(r.code).toBe(1);
      // It was "cannot write the index at … (attempt to write a readonly database): check the permissions of the file and its folder".
      expect(r.stderr).toBe(
        `tsm: cannot write the index at ${db}: its folder ${folder} is not writable for you, and SQLite keeps the index's -wal and -shm files there ` +
          `(attempt to write a readonly database): make the folder writable for you (\`chmod u+w ${folder}\`), or give --db (or TSM_DB) an index of your own\n`,
      );
    } finally {
      chmodSync(folder, 0o755);
    }
    expect(run(['index', '--vault', v.dir]).code).toBe(0);
  });

  it.skipIf(!runuser)("one of another user's that it may not read: search and doctor name it, and the fix is to take it back", () => {
    leave(`${db}-shm`, 0o000, 0);
    const search = run(['search', 'word', '--vault', v.dir]);
    expect(search.code).toBe(1);
    // It was "tsm: cannot open the index at …/index.db: unable to open database file".
    const fix = `it belongs to another user (uid 0: a \`sudo tsm\` run, or their \`tsm watch\`): once no tsm of theirs runs on this index, give it to you (\`sudo chown $USER ${db}-shm\`)`;
    expect(search.stderr).toBe(`tsm: cannot read the index at ${db}: SQLite keeps ${db}-shm beside it, which you may not read (unable to open database file): ${fix}\n`);
    const doctor = JSON.parse(run(['doctor', '--json', '--vault', v.dir]).stdout) as { problems: { check: string; message: string; fix: string }[] };
    const index = doctor.problems.find((p) => p.check === 'index');
    expect(index?.message).toContain(`SQLite keeps ${db}-shm beside it, which you may not read`);
    // It was "make the index file and its folder writable for you", which they were.
    expect(index?.fix).toBe(fix);
    expect(run(['index', '--vault', v.dir]).stderr).toContain(`which you may not write (unable to open database file): ${fix}\n`);
  });
});
