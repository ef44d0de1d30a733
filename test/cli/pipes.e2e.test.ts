// tsm in shell scripts, as a ripgrep user writes them: `while read q; do tsm search -- "$q"; done < file`,
// `tsm search -- "$word"` for a word that starts with a dash, a query held in a variable that may be empty.
import { spawnSync } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanEnv, makeVault, TSM, tsm } from '../helpers/cli.js';

const NOTES = {
  '.tsm/.keep': '',
  'a.md': '# Antenna notes\n\nThe LoRa antenna gain matters. Flags such as -h and --help belong to the CLI.\n',
  'b.md': '# Battery\n\nLoRa sleep current.\n',
  'c.md': '# Collar\n\nSee [[nowhere]].\n',
};

let vault: { dir: string; cleanup: () => void };
beforeAll(() => {
  vault = makeVault(NOTES);
  expect(tsm(['index'], { cwd: vault.dir }).code).toBe(0);
});
afterAll(() => vault.cleanup());

/** Runs a POSIX shell script in the vault, where `"$NODE" "$TSM_JS"` runs the built tsm. */
function sh(script: string): { code: number | null; stdout: string; stderr: string } {
  const r = spawnSync('sh', ['-c', script], {
    cwd: vault.dir,
    env: cleanEnv({ NODE: process.execPath, TSM_JS: TSM }),
    encoding: 'utf8',
    timeout: 60_000,
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe('tsm in shell scripts', () => {
  it('a word after -- is a query word, -h and --help included', () => {
    for (const word of ['-h', '--help']) {
      const r = tsm(['search', '--ids', '--', word], { cwd: vault.dir });
      expect(r.code, `${word}: ${r.stderr}`).toBe(0);
      expect(r.stderr, word).toMatch(new RegExp(`^tsm: \\d+ results? for "${word}"`));
    }
    // Before --, -h still asks for help.
    const help = tsm(['search', '-h', '--', 'LoRa'], { cwd: vault.dir });
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/^tsm search/);
  });
});

describe('tsm doctor in a script', () => {
  it('exits 1 for an error, 0 when it finds only warnings, as the README says', () => {
    const ok = tsm(['doctor', '--json'], { cwd: vault.dir });
    expect(ok.code, ok.stdout).toBe(0);
    const found = JSON.parse(ok.stdout).problems as { severity: string; check: string }[];
    expect(found.some((p) => p.severity === 'warning' && p.check === 'links')).toBe(true);
    expect(found.some((p) => p.severity === 'error')).toBe(false);
    const none = tsm(['doctor', '--json', '--db', join(vault.dir, '.tsm', 'none.db')], { cwd: vault.dir });
    expect(none.code).toBe(1);
    expect(JSON.parse(none.stdout).problems.some((p: { severity: string }) => p.severity === 'error')).toBe(true);
  });
});

describe('a usage error in a loop that reads its queries from a file', () => {
  it('leaves the loop its other lines: the check for a hook payload looks at a file stdin without reading it away', () => {
    // `-fast` is read as -f ast (an unknown format): exit 2. Before, that check read the rest of the file,
    // so the loop ended there and `Battery` was never searched.
    writeFileSync(join(vault.dir, 'queries.txt'), 'LoRa\n-fast\nBattery\n');
    const r = sh('while read q; do "$NODE" "$TSM_JS" search -n 1 "$q" >/dev/null 2>&1; echo "$q $?"; done < queries.txt');
    expect(r.stdout).toBe('LoRa 0\n-fast 2\nBattery 0\n');
  });
});

// /dev/full fails every write with ENOSPC, as a full disk does (Linux; macOS has no /dev/full).
describe.skipIf(!existsSync('/dev/full'))('output that cannot be written', () => {
  it('a full disk on stdout is one line naming the cause (exit 1), never a stack trace', () => {
    for (const args of [['search', 'LoRa'], ['status', '--json'], ['related', 'a.md'], ['--version']]) {
      const r = sh(`"$NODE" "$TSM_JS" ${args.join(' ')} >/dev/full`);
      expect(r.code, args.join(' ')).toBe(1);
      expect(r.stderr, args.join(' ')).toMatch(/^tsm: cannot write to standard output: no space left on device \(ENOSPC\)/m);
      expect(r.stderr, args.join(' ')).not.toMatch(/^\s+at /m);
    }
  });

  it('a full disk on stderr, where nothing could report it, does not fail a search that printed its results', () => {
    const r = sh('"$NODE" "$TSM_JS" search --ids LoRa 2>/dev/full');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^\d+\n/);
  });
});

describe('tsm index --files-from-stdin in a pipeline', () => {
  it('takes NUL-separated paths (find -print0, git diff -z, rg -l0), names with spaces and newlines included', () => {
    const v = makeVault({ '.tsm/.keep': '', 'a.md': '# A\n\nalpha\n', 'sub dir/b c.md': '# B\n\nbeta\n', 'new\nline.md': '# N\n\ngamma\n' });
    try {
      expect(tsm(['index'], { cwd: v.dir }).code).toBe(0);
      for (const f of ['a.md', 'sub dir/b c.md', 'new\nline.md']) writeFileSync(join(v.dir, f), '# changed\n\ndelta\n');
      const r = tsm(['index', '--files-from-stdin', '--json'], { cwd: v.dir, input: 'a.md\0sub dir/b c.md\0new\nline.md\0' });
      expect(r.code, r.stderr).toBe(0);
      const s = JSON.parse(r.stdout);
      expect(s.updated).toBe(3);
      expect(s.notTaken ?? []).toEqual([]);
    } finally {
      v.cleanup();
    }
  });
});

describe('a command missing its argument', () => {
  it('says what it needs, not yargs\' "Not enough non-option arguments"; a note named -x.md is named ./-x.md too', () => {
    for (const [args, needs] of [
      [['related'], /^tsm: tsm related needs a note: its vault path, file name, title or alias\n/],
      [['ingest-session'], /^tsm: tsm ingest-session needs a transcript: a \.jsonl file or a folder of them\n/],
      [['model'], /^tsm: tsm model needs an action: list, path, pull or setup/],
    ] as const) {
      const r = tsm([...args], { cwd: vault.dir });
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr, args.join(' ')).toMatch(needs);
      expect(r.stderr, args.join(' ')).not.toContain('non-option');
    }
    const v = makeVault({ '.tsm/.keep': '', '-x.md': '# Dash\n\n[[a]]\n', 'a.md': '# A\n' });
    try {
      expect(tsm(['index'], { cwd: v.dir }).code).toBe(0);
      const r = tsm(['related', './-x.md'], { cwd: v.dir });
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toMatch(/^-x\.md {2}\(Dash\)/);
    } finally {
      v.cleanup();
    }
  });
});
