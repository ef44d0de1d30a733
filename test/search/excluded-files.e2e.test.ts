// Obsidian's "Excluded files" (`userIgnoreFilters` in .obsidian/app.json) stay out of Obsidian's search, and so
// out of every search of tsm's: `tsm search`, the prompt hook and MCP. They stay in the index, so links to them
// resolve; `"obsidianExcludedFiles": false` searches them; a change in Obsidian counts at the next search.
import { spawnSync } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeVault, tsm } from '../helpers/cli.js';
import { connect } from '../mcp/setup.js';
import { ok } from '../mcp/client.js';
import { loadConfig } from '../../src/vault/config.js';

const TEMPLATE = '# Meeting template\n\n## Agenda\n\n- {{date}} antenna review agenda\n- decisions\n\nThe placeholder list.\n';
const REVIEW = '# Antenna review\n\nThe antenna review picked the whip antenna. The agenda came from [[meeting]].\n';
const ARCHIVED = '# Old antenna review\n\nantenna review agenda, antenna review agenda\n';

let v: { dir: string; cleanup: () => void };
const app = (filters: unknown) => writeFileSync(join(v.dir, '.obsidian', 'app.json'), JSON.stringify({ userIgnoreFilters: filters, alwaysUpdateLinks: true }));
const search = (...args: string[]) => {
  const r = tsm(['search', ...args, '-f', 'json'], { cwd: v.dir });
  expect(r.code, r.stderr).toBe(0);
  return (JSON.parse(r.stdout) as { path: string }[]).map((h) => h.path);
};

beforeAll(() => {
  v = makeVault({
    '.obsidian/app.json': '{}',
    'Templates/meeting.md': TEMPLATE,
    'notes/review.md': REVIEW,
    'Archive/2024/review.md': ARCHIVED,
  });
  app(['Templates/', '/^archive\\//']);
  expect(tsm(['index'], { cwd: v.dir }).code).toBe(0);
});
afterAll(() => v.cleanup());

describe('Obsidian Excluded files', () => {
  it('are no result of tsm search, with or without filters, and are not counted', () => {
    expect(search('antenna review agenda')).toEqual(['notes/review.md']);
    expect(search('antenna review agenda', '--type', 'knowledge')).toEqual(['notes/review.md']);
    expect(search('path:Templates/ agenda')).toEqual([]);
    const r = tsm(['search', 'antenna review agenda'], { cwd: v.dir });
    expect(r.stderr).toContain('tsm: 1 result for "antenna review agenda"');
  });

  it('lend no word to "did you mean": a word only they hold finds nothing', () => {
    // `placeholder` is the template's alone: offered for `placeholdr`, it found nothing again.
    expect(tsm(['search', 'placeholdr'], { cwd: v.dir }).stderr).not.toContain('did you mean');
    expect(tsm(['search', 'antena'], { cwd: v.dir }).stderr).toContain('did you mean: antenna');
  });

  it('stay indexed: a link to one resolves', () => {
    const r = tsm(['related', 'notes/review.md'], { cwd: v.dir });
    expect(r.stdout).toContain('Templates/meeting.md  wikilink:3');
    expect(tsm(['doctor', '--json'], { cwd: v.dir }).stdout).not.toContain('links to \\"meeting\\"');
  });

  it('are not injected by the prompt hook', () => {
    const r = tsm(['hook'], { cwd: v.dir, input: JSON.stringify({ session_id: 's', cwd: v.dir, hook_event_name: 'UserPromptSubmit', prompt: 'what was on the antenna review agenda' }) });
    expect(r.code).toBe(0);
    const xml = JSON.parse(r.stdout).hookSpecificOutput.additionalContext as string;
    expect(xml.match(/<source [^>]*>[^<]*<\/source>/g)).toEqual(['<source type="knowledge">notes/review.md</source>']);
  });

  it('are no result of MCP search or retrieve_memory', async () => {
    const { client, close } = await connect(loadConfig({ vaultFlag: v.dir, env: {} }));
    try {
      const found = await client.callTool({ name: 'search', arguments: { query: 'antenna review agenda' } });
      const text = JSON.stringify(found.structuredContent ?? found.content);
      expect(text).toContain('notes/review.md');
      expect(text).not.toContain('Templates/meeting.md');
      expect(text).not.toContain('Archive/2024');
      const memory = JSON.stringify(await client.callTool({ name: 'retrieve_memory', arguments: { query: 'antenna review agenda' } }));
      expect(memory).toContain('notes/review.md');
      expect(memory).not.toContain('Archive/2024');
    } finally {
      await close();
    }
  });

  it('are no recent note of SessionStart or MCP recent_context: a template edited today is no recent work', async () => {
    const r = tsm(['hook'], { cwd: v.dir, input: JSON.stringify({ session_id: 's', cwd: v.dir, hook_event_name: 'SessionStart', source: 'startup' }) });
    expect(r.code).toBe(0);
    const context = JSON.parse(r.stdout).hookSpecificOutput.additionalContext as string;
    expect(context).toContain('notes/review.md');
    expect(context).not.toContain('Templates/meeting.md');
    expect(context).not.toContain('Archive/2024');
    // The notes are dated by their files' times, today: the server's clock is the real one (with the tests'
    // pinned NOW, a week before, they were dated ahead, past what recent_context lists).
    const { client, close } = await connect(loadConfig({ vaultFlag: v.dir, env: {} }), [], new Date());
    try {
      const recent = JSON.stringify(await client.callTool({ name: 'recent_context', arguments: {} }));
      expect(recent).toContain('notes/review.md');
      expect(recent).not.toContain('Templates/meeting.md');
      expect(recent).not.toContain('Archive/2024');
    } finally {
      await close();
    }
  });

  it('are searched with "obsidianExcludedFiles": false, and follow app.json without a new index', () => {
    writeFileSync(join(v.dir, '.tsm', 'config.json'), '{ "obsidianExcludedFiles": false }');
    try {
      expect(search('antenna review agenda').sort()).toEqual(['Archive/2024/review.md', 'Templates/meeting.md', 'notes/review.md']);
      const doctor = tsm(['doctor'], { cwd: v.dir }).stdout;
      expect(doctor).toContain('info    excluded: Obsidian\'s Excluded files (.obsidian/app.json: "Templates/", "/^archive\\\\//") name 2 notes, which searches find');
    } finally {
      writeFileSync(join(v.dir, '.tsm', 'config.json'), '{}');
    }
    app(['Templates/']);
    expect(search('antenna review agenda').sort()).toEqual(['Archive/2024/review.md', 'notes/review.md']);
    app(['Templates/', '/^archive\\//']);
  });

  it('tsm doctor names them, and an entry it cannot use', () => {
    const doctor = tsm(['doctor'], { cwd: v.dir }).stdout;
    expect(doctor).toContain('info    excluded: Obsidian\'s Excluded files (.obsidian/app.json: "Templates/", "/^archive\\\\//") leave 2 notes out of every search');
    app(['Templates/', '/(a+)+$/']);
    try {
      expect(tsm(['doctor'], { cwd: v.dir }).stdout).toMatch(/warning excluded: \.obsidian\/app\.json: the Excluded files entry "\/\(a\+\)\+\$\/" is no regular expression tsm runs/);
      expect(search('antenna review agenda').sort()).toEqual(['Archive/2024/review.md', 'notes/review.md']);
    } finally {
      app(['Templates/', '/^archive\\//']);
    }
  });

  it('a FIFO at .obsidian/app.json excludes nothing and blocks nothing: search, the prompt hook and doctor answer', () => {
    // Read at every search, it blocked each of them for good, the prompt hook past its deadline.
    const file = join(v.dir, '.obsidian', 'app.json');
    rmSync(file);
    expect(spawnSync('mkfifo', [file]).status).toBe(0);
    try {
      const r = tsm(['search', 'antenna review agenda', '-f', 'json'], { cwd: v.dir, timeoutMs: 8000 });
      expect(r.code, r.stderr).toBe(0);
      expect((JSON.parse(r.stdout) as { path: string }[]).map((h) => h.path).sort()).toEqual(['Archive/2024/review.md', 'Templates/meeting.md', 'notes/review.md']);
      const payload = { hook_event_name: 'UserPromptSubmit', prompt: 'antenna review agenda', cwd: v.dir, session_id: 's1' };
      const hook = tsm(['hook'], { cwd: v.dir, input: JSON.stringify(payload), timeoutMs: 8000 });
      expect(hook.code).toBe(0);
      expect(hook.stdout).toContain('notes/review.md');
      const doctor = tsm(['doctor'], { cwd: v.dir, timeoutMs: 8000 });
      expect(doctor.stdout).toContain('warning excluded: .obsidian/app.json cannot be read (not a regular file (a pipe, a socket or a device))');
    } finally {
      rmSync(file);
      app(['Templates/', '/^archive\\//']);
    }
  });
});

describe('Excluded files that outrank every other note', () => {
  let w: { dir: string; cleanup: () => void };
  beforeAll(() => {
    const files: Record<string, string> = { '.obsidian/app.json': JSON.stringify({ userIgnoreFilters: ['Templates/'] }) };
    // More excluded notes than a ranker reads (300), each better for the query than the notes that count.
    for (let i = 0; i < 320; i++) files[`Templates/t${i}.md`] = `# Sprint template ${i}\n\nsprint retro sprint retro sprint retro\n`;
    files['notes/retro.md'] = '# Team notes\n\nThe sprint retro moved to Fridays. Other things happened too, at length.\n';
    files['notes/plan.md'] = '# Planning\n\nNext sprint starts Monday; the retro notes are in the team notes, among other things.\n';
    w = makeVault(files);
    expect(tsm(['index'], { cwd: w.dir }).code).toBe(0);
  });
  afterAll(() => w.cleanup());

  it('leave the notes that count found, ranked as without them', () => {
    const r = tsm(['search', 'sprint retro', '-f', 'json'], { cwd: w.dir });
    expect((JSON.parse(r.stdout) as { path: string }[]).map((h) => h.path)).toEqual(['notes/retro.md', 'notes/plan.md']);
    expect(r.stderr).toContain('tsm: 2 results');
  });
});

describe("Excluded files among a daily note's neighbouring days", () => {
  let d: { dir: string; cleanup: () => void };
  const daily = (date: string, text: string) => `---\ntype: daily\ndate: ${date}\n---\n# ${date}\n\n${text}\n`;
  beforeAll(() => {
    d = makeVault({
      '.obsidian/app.json': JSON.stringify({ userIgnoreFilters: ['Archive/', 'Templates/'] }),
      'daily/2026-03-01.md': daily('2026-03-01', 'Walked the ridge with the collar.'),
      'daily/2026-03-03.md': daily('2026-03-03', 'Range test on the ridge: 4.1 km.'),
      'daily/2026-03-05.md': daily('2026-03-05', 'Swapped the whip antenna.'),
      // An archived day between them, and a daily template with a date (placeholders already filled once).
      'Archive/2026-03-02.md': daily('2026-03-02', 'Old archived log.'),
      'Templates/Daily.md': daily('2026-03-04', '{{date}} plan, log, tomorrow'),
    });
    expect(tsm(['index'], { cwd: d.dir }).code).toBe(0);
  });
  afterAll(() => d.cleanup());

  it('are no day of MCP timeline, as they are no result of its search', async () => {
    const { client, close } = await connect(loadConfig({ vaultFlag: d.dir, env: {} }));
    try {
      const found = (await ok(client, 'search', { query: 'range test ridge' })) as { results: { id: number; path: string }[] };
      const anchor = found.results.find((r) => r.path === 'daily/2026-03-03.md');
      expect(anchor).toBeDefined();
      const t = (await ok(client, 'timeline', { anchor: anchor?.id, before: 3, after: 3 })) as { days_before: { path: string }[]; days_after: { path: string }[] };
      expect(t.days_before.map((x) => x.path)).toEqual(['daily/2026-03-01.md']);
      expect(t.days_after.map((x) => x.path)).toEqual(['daily/2026-03-05.md']);
    } finally {
      await close();
    }
  });
});

// file_history listed the notes and sessions Obsidian's Excluded files name (a template that shows the command,
// an archived session), which README says every search, MCP's too, leaves out.
describe("Excluded files in MCP file_history", () => {
  let h: { dir: string; cleanup: () => void };
  const session = (date: string, sid: string) =>
    `---\ntype: session\nsession_id: ${sid}-0000-0000-0000-000000000000\nproject: proj\ncwd: /home/me/proj\nstarted: ${date}T10:00:00+09:00\n---\n\n# proj: migrate\n\n## 1. run the migration\n\nrun the migration\n\n### Actions\n\n- Bash \`python scripts/migrate.py --apply\` (exit 0)\n`;
  beforeAll(() => {
    const files: Record<string, string> = {
      '.obsidian/app.json': JSON.stringify({ userIgnoreFilters: ['Templates/', 'Archive/'] }),
      'notes/migration.md': '---\ndate: 2026-01-05\n---\n# Migration\n\nWe run scripts/migrate.py at each release.\n',
      'sessions/2026-01-06-proj-aaaaaaaa.md': session('2026-01-06', 'aaaaaaaa'),
      'Archive/sessions/2026-01-07-proj-bbbbbbbb.md': session('2026-01-07', 'bbbbbbbb'),
    };
    // Newer than the notes that count, and more of them than file_history fetches for limit 1 (2 rows).
    for (let i = 1; i <= 3; i++) files[`Templates/release-${i}.md`] = `---\ndate: 2026-02-0${i}\n---\n# Release ${i}\n\n- [ ] run scripts/migrate.py\n`;
    h = makeVault(files);
    expect(tsm(['index'], { cwd: h.dir }).code).toBe(0);
  });
  afterAll(() => h.cleanup());

  it('are no note or session of a file, and take no row from the ones that count', async () => {
    const { client, close } = await connect(loadConfig({ vaultFlag: h.dir, env: {} }));
    try {
      type History = { sessions: { path: string }[]; notes: { path: string }[] };
      const all = (await ok(client, 'file_history', { file_path: 'scripts/migrate.py', limit: 20 })) as History;
      expect(all.sessions.map((s) => s.path)).toEqual(['sessions/2026-01-06-proj-aaaaaaaa.md']);
      expect(all.notes.map((n) => n.path)).toEqual(['notes/migration.md']);
      const one = (await ok(client, 'file_history', { file_path: 'migrate.py', limit: 1 })) as History;
      expect([...one.sessions, ...one.notes].map((x) => x.path)).toEqual(['sessions/2026-01-06-proj-aaaaaaaa.md']);
    } finally {
      await close();
    }
  });
});
