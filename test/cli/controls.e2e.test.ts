// Text output of status, doctor and related shows file names, link targets and the typed note name as
// `search -f text` shows note text (src/text/controls.ts): no terminal escape, no forged line. JSON stays exact.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tsm, useIndexedVault } from '../helpers/cli.js';

const EVIL = 'evil\u001b[2J\u001b[31mRED\nFAKE: line.md';
const ESC = 'esc\u001b[31mname.md';
const vault = useIndexedVault({
  [EVIL]: '---\ntitle: A\ntitle: B\n---\n# evil\n\nbody\n', // the duplicate key makes a warning naming the file
  [ESC]: '# esc\n\nLinks back to [[link]].\n',
  'link.md': '# link\n\nSee [[\u001b[31mredlink]] and [[esc\u001b[31mname]].\n',
});

/** No control character but newline, and no line that starts as a forged one. */
function expectClean(out: string): void {
  expect(out).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/);
  expect(out).not.toMatch(/^FAKE/m);
}

describe('terminal output never carries control characters from the vault or the command line', () => {
  it('status lists the warning with the file name cleaned', () => {
    const r = tsm(['status', '--vault', vault.dir]);
    expect(r.code, r.stderr).toBe(0);
    expectClean(r.stdout);
    expect(r.stdout).toContain('  ! evilRED FAKE: line.md: frontmatter');
    expect(JSON.parse(tsm(['status', '--json', '--vault', vault.dir]).stdout).warningList[0].path).toBe(EVIL);
  });

  it('doctor shows the warning and the unresolved link cleaned', () => {
    const r = tsm(['doctor', '--vault', vault.dir]);
    expectClean(r.stdout);
    expect(r.stdout).toContain('warning notes: evilRED FAKE: line.md: frontmatter');
    expect(r.stdout).toContain('links to "redlink"');
    const json = JSON.parse(tsm(['doctor', '--json', '--vault', vault.dir]).stdout);
    expect(json.problems.some((p: { message: string }) => p.message.includes('"\u001b[31mredlink"'))).toBe(true);
  });

  it('related shows paths and targets cleaned; its error echoes the typed name cleaned', () => {
    const r = tsm(['related', 'link.md', '--vault', vault.dir]);
    expect(r.code, r.stderr).toBe(0);
    expectClean(r.stdout);
    expect(r.stdout).toContain('  redlink  [unresolved]  wikilink:3');
    expect(r.stdout).toContain('  escname.md  wikilink:3');
    const json = JSON.parse(tsm(['related', 'link.md', '--json', '--vault', vault.dir]).stdout);
    expect(json.outgoing.map((l: { target: string }) => l.target)).toContain('\u001b[31mredlink');
    const back = tsm(['related', ESC, '--vault', vault.dir]);
    expectClean(back.stdout);
    expect(back.stdout).toMatch(/^escname\.md {2}\(esc\)$/m);
    const missing = tsm(['related', 'zz\u001b[31mQ\nFAKE: x', '--vault', vault.dir]);
    expect(missing.code).toBe(1);
    expectClean(missing.stderr);
    expect(missing.stderr).toBe('tsm: no indexed note matches "zzQ FAKE: x": give its vault path, file name, title or alias (`tsm search` finds it by its words)\n');
  });
});

// The XML outputs (-f xml and the prompt hook's injection) dropped only the ESC that XML 1.0 forbids, so a note
// holding terminal output handed the model `[2J` and `]8;;http://…` where text and md show nothing.
describe('the XML outputs drop terminal escape sequences whole, as text and md do', () => {
  const colours = useIndexedVault({
    'build.md': '# Build log\n\nzebrafish \u001b[31mfailed\u001b[0m \u001b[2Jafter \u001b]8;;http://evil.example\u0007the link\u001b]8;;\u0007\n',
  });

  it('search -f xml and the hook carry the words without the sequences', () => {
    const xml = tsm(['search', 'zebrafish', '-f', 'xml', '--vault', colours.dir]);
    expect(xml.code, xml.stderr).toBe(0);
    expect(xml.stdout).toContain('zebrafish failed after the link');
    expect(xml.stdout).not.toMatch(/\[31m|\[0m|\[2J|\]8;;/);
    const payload = JSON.stringify({ hook_event_name: 'UserPromptSubmit', session_id: 's', prompt: 'zebrafish build failed', cwd: colours.dir });
    const hook = tsm(['hook', '--vault', colours.dir], { input: payload });
    expect(hook.code).toBe(0);
    expect(hook.stdout).toContain('zebrafish failed after the link');
    expect(hook.stdout).not.toMatch(/\[31m|\[0m|\[2J|\]8;;/);
  });
});

// Messages on stderr name paths too: a vault folder whose name holds an escape sequence coloured the terminal
// through "no index yet; indexing …" and init's "created …" (error lines were already cleaned).
describe('stderr messages show paths cleaned', () => {
  it('the first build and tsm init name a folder without its escape sequence', () => {
    const root = mkdtempSync(join(tmpdir(), 'tsm-esc-'));
    try {
      const dir = join(root, 'esc\u001b[31mred');
      mkdirSync(dir);
      writeFileSync(join(dir, 'a.md'), '# a\n\nalphaword\n');
      const first = tsm(['search', 'alphaword', '--vault', dir]);
      expect(first.code, first.stderr).toBe(0);
      expect(first.stderr).toContain(`indexing ${root}/escred…`);
      expectClean(first.stderr);
      const init = tsm(['init', '--vault', dir]);
      expect(init.code, init.stderr).toBe(0);
      expect(init.stderr).toContain('escred');
      expectClean(init.stderr);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});

// Bidirectional overrides and isolates ("Trojan Source") in a note's text or name reorder what a terminal shows
// and hide text from whoever reads a prompt: text and md drop them, xml writes them as character references,
// json as \u escapes (its values stay exact). Every format printed them raw.
describe('no format prints a bidirectional override raw', () => {
  const LINE = 'okapi check: if isAdmin\u202e } \u2066if (isAdmin)\u2069 begin admins only';
  const NAME = 'x\u202edm.txt.md';
  const bidi = useIndexedVault({ [NAME]: `# Access\n\n${LINE}, said \u05e9\u05dc\u05d5\u05dd.\u200f\n` });
  const search = (format: string) => {
    const r = tsm(['search', 'okapi', '-f', format, '--vault', bidi.dir]);
    expect(r.code, r.stderr).toBe(0);
    return r.stdout;
  };

  it.each(['text', 'md', 'xml', 'json'])('-f %s', (format) => {
    const out = search(format);
    expect(out).toContain('okapi check');
    expect(out).not.toMatch(/[\u202a-\u202e\u2066-\u2069]/);
    // The marks of right-to-left text stay.
    expect(out).toContain('\u05dd.\u200f');
  });

  it('text and md show the words in their order; xml refers to the characters; json keeps them exact', () => {
    expect(search('text')).toContain('xdm.txt.md:1');
    expect(search('text')).toContain('okapi check: if isAdmin } if (isAdmin) begin admins only');
    expect(search('md')).toContain('**Source:** `xdm.txt.md` line 1');
    expect(search('xml')).toContain('x&#x202e;dm.txt.md</source>');
    expect(search('xml')).toContain('isAdmin&#x202e; } &#x2066;if (isAdmin)&#x2069; begin');
    const payload = JSON.stringify({ hook_event_name: 'UserPromptSubmit', session_id: 's', prompt: 'the okapi admins check', cwd: bidi.dir });
    const hook = tsm(['hook', '--vault', bidi.dir], { input: payload });
    expect(hook.stdout).toContain('isAdmin&#x202e; } &#x2066;if (isAdmin)&#x2069; begin');
    expect(hook.stdout).not.toMatch(/[\u202a-\u202e\u2066-\u2069]/);
    const [hit] = JSON.parse(search('json'));
    expect(hit.path).toBe(NAME);
    expect(hit.snippet).toContain(LINE);
  });
});
