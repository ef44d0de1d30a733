import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, symlinkSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { indexFixtureVault } from '../helpers/fixture-vault.js';
import { fails, ok } from './client.js';
import { connect, serveTestVault, type Served } from './setup.js';

let s: Served;
beforeAll(async () => {
  s = await serveTestVault();
});
afterAll(async () => s.close());

describe('read_note', () => {
  it('returns the file with line numbers and its note metadata', async () => {
    const r = await ok(s.client, 'read_note', { path: 'knowledge/lora.md' });
    expect(r).toMatchObject({ path: 'knowledge/lora.md', title: 'LoRa module guide', type: 'knowledge', status: null, date: '2026-09-01' });
    expect(r.from_line).toBe(1);
    expect(r.to_line).toBe(r.total_lines);
    expect(r.total_lines).toBe(15);
    expect(r).not.toHaveProperty('next_from_line');
    const lines = (r.text as string).split('\n');
    expect(lines[0]).toBe('1\t---');
    expect(lines[8]).toBe('9\t## Antenna');
    expect(lines).toHaveLength(15);
  });

  it('returns a window from from_line, with next_from_line when more follows', async () => {
    const r = await ok(s.client, 'read_note', { path: 'knowledge/lora.md', from_line: 9, lines: 3 });
    expect(r.text).toBe('9\t## Antenna\n10\t\n11\tA quarter-wave whip antenna gives the best range. See [[vhf]].');
    expect(r).toMatchObject({ from_line: 9, to_line: 11, next_from_line: 12 });
  });

  it('clamps from_line and lines', async () => {
    const huge = await ok(s.client, 'read_note', { path: 'knowledge/long.md', lines: 1e9 });
    expect(huge.to_line).toBe(huge.total_lines);
    const zero = await ok(s.client, 'read_note', { path: 'knowledge/lora.md', from_line: -4, lines: 0 });
    expect(zero).toMatchObject({ from_line: 1, to_line: 1, text: '1\t---' });
    const past = await ok(s.client, 'read_note', { path: 'knowledge/lora.md', from_line: 500 });
    expect(past).toMatchObject({ from_line: 16, to_line: 15, total_lines: 15, text: '' });
  });

  it('finds a note by its path without .md or by a unique name', async () => {
    expect((await ok(s.client, 'read_note', { path: 'knowledge/lora' })).path).toBe('knowledge/lora.md');
    expect((await ok(s.client, 'read_note', { path: 'lora' })).path).toBe('knowledge/lora.md');
    expect((await ok(s.client, 'read_note', { path: `${s.fx.vault}/knowledge/lora.md` })).path).toBe('knowledge/lora.md');
    expect((await ok(s.client, 'read_note', { path: './knowledge/../knowledge/lora.md' })).path).toBe('knowledge/lora.md');
  });

  it('refuses paths that leave the vault: ../, absolute, and symlinks out of it', async () => {
    writeFileSync(join(s.fx.outside, 'secret.txt'), 'secret');
    expect(await fails(s.client, 'read_note', { path: '../secret.txt' })).toMatch(/outside the vault/);
    expect(await fails(s.client, 'read_note', { path: 'knowledge/../../secret.txt' })).toMatch(/outside the vault/);
    expect(await fails(s.client, 'read_note', { path: join(s.fx.outside, 'secret.md') })).toMatch(/outside the vault/);
    expect(await fails(s.client, 'read_note', { path: '/etc/passwd' })).toMatch(/outside the vault/);
    // A note that is a symlink out of the vault is never indexed (src/vault/paths.ts), so never served.
    const viaLink = await fails(s.client, 'read_note', { path: 'knowledge/escape.md' });
    expect(viaLink).toMatch(/not indexed/);
    expect(viaLink).not.toContain('Top secret');
  });

  it('refuses a folder of the vault that is a symlink out of it', async () => {
    mkdirSync(join(s.fx.outside, 'dir'), { recursive: true });
    writeFileSync(join(s.fx.outside, 'dir', 'lora.md'), 'outside copy');
    symlinkSync(join(s.fx.outside, 'dir'), join(s.fx.vault, 'linked'));
    // Not indexed, and even if a stale index listed it the realpath check would refuse it.
    expect(await fails(s.client, 'read_note', { path: 'linked/lora.md' })).toMatch(/not indexed/);
  });

  it('refuses files that are not indexed, folders and empty paths', async () => {
    writeFileSync(join(s.fx.vault, 'knowledge', 'new.md'), '# New\n');
    expect(await fails(s.client, 'read_note', { path: 'knowledge/new.md' })).toMatch(/^note not indexed: knowledge\/new\.md/);
    expect(await fails(s.client, 'read_note', { path: 'knowledge/' })).toMatch(/folder/);
    expect(await fails(s.client, 'read_note', { path: '.' })).toMatch(/folder/);
    // Without its slash, as `ls` writes it: was "note not indexed: knowledge (… run `tsm index` …)".
    expect(await fails(s.client, 'read_note', { path: 'knowledge' })).toBe('path names a folder, not a note: knowledge');
    expect(await fails(s.client, 'read_note', { path: `${s.fx.vault}/knowledge` })).toBe(`path names a folder, not a note: ${s.fx.vault}/knowledge`);
    expect(await fails(s.client, 'read_note', { path: '' })).toBe('path must not be empty');
    expect(await fails(s.client, 'read_note', { path: 'a\u0000b' })).toMatch(/NUL/);
  });
});

describe('related', () => {
  it('returns outgoing links (resolved or not) and backlinks', async () => {
    const r = await ok(s.client, 'related', { path: 'knowledge/vhf.md' });
    expect(r.path).toBe('knowledge/vhf.md');
    expect(r.title).toBe('VHF notes');
    expect(r.outgoing).toEqual([
      { path: 'knowledge/lora.md', target: 'lora', kind: 'wikilink', heading: null, line: 7 },
      { path: null, target: 'nowhere', kind: 'wikilink', heading: null, line: 7 },
    ]);
    expect(r.backlinks).toEqual([{ path: 'knowledge/lora.md', kind: 'wikilink', line: 11 }]);
  });

  it('names the attachment a link shows (an image, a PDF, a canvas) when no note is its target', async () => {
    const vault = mkdtempSync(join(tmpdir(), 'tsm-mcp-attach-'));
    try {
      const cfg = await indexFixtureVault(vault, {
        'note.md': { content: '# Note\n\n![[image.png]] [[board.canvas]] [[gone.png]]\n\n![diagram](assets/image.png) ![](gone%20too.png) ![](https://x.org/a.png)\n' },
        'assets/image.png': { content: 'png' },
        'board.canvas': { content: '{"nodes":[]}' },
      });
      const served = await connect(cfg);
      try {
        const r = await ok(served.client, 'related', { path: 'note.md' });
        expect(r.outgoing).toEqual([
          { path: null, attachment: 'assets/image.png', target: 'image.png', kind: 'embed', heading: null, line: 3 },
          { path: null, attachment: 'board.canvas', target: 'board.canvas', kind: 'wikilink', heading: null, line: 3 },
          { path: null, target: 'gone.png', kind: 'wikilink', heading: null, line: 3 },
          // A markdown image is an embed as ![[…]] is; a URL is no link.
          { path: null, attachment: 'assets/image.png', target: 'assets/image.png', kind: 'embed', heading: null, line: 5 },
          { path: null, target: 'gone too.png', kind: 'embed', heading: null, line: 5 },
        ]);
      } finally {
        await served.close();
      }
    } finally {
      rmSync(vault, { recursive: true, force: true });
    }
  });

  // Obsidian's Outgoing links pane lists other notes: a link to one of the note's own headings or blocks
  // (`[[#Details]]`, `[[A#Details]]`) is no neighbour, as backlinks already leave such links out.
  it('leaves out links from the note to itself', async () => {
    const vault = mkdtempSync(join(tmpdir(), 'tsm-mcp-self-'));
    try {
      const cfg = await indexFixtureVault(vault, {
        'a.md': { content: '# A\n\nSee [[#Details]], [[a#Details]], [[#^blk]] and [[b]].\n\n## Details\n\nText. ^blk\n' },
        'b.md': { content: '# B\n\nBack to [[a]].\n' },
      });
      const served = await connect(cfg);
      try {
        const r = await ok(served.client, 'related', { path: 'a.md' });
        expect(r.outgoing).toEqual([{ path: 'b.md', target: 'b', kind: 'wikilink', heading: null, line: 3 }]);
        expect(r.backlinks).toEqual([{ path: 'b.md', kind: 'wikilink', line: 3 }]);
      } finally {
        await served.close();
      }
    } finally {
      rmSync(vault, { recursive: true, force: true });
    }
  });

  it('gives empty lists for a note without links', async () => {
    const r = await ok(s.client, 'related', { path: 'daily/2026-11-18.md' });
    expect(r.outgoing).toEqual([]);
    expect(r.backlinks).toEqual([]);
  });

  it('refuses traversal, unknown notes and symlinks out of the vault', async () => {
    expect(await fails(s.client, 'related', { path: '../../etc/passwd' })).toMatch(/outside the vault/);
    expect(await fails(s.client, 'related', { path: 'knowledge/nope.md' })).toMatch(/not indexed/);
    expect(await fails(s.client, 'related', { path: 'knowledge/escape.md' })).toMatch(/not indexed/);
  });
});

describe('timeline', () => {
  it('returns the anchor in full, its neighbours in the note, and the neighbouring days of a daily note', async () => {
    const anchor = await s.sectionId('daily/2026-11-19.md', 'Range test');
    const r = await ok(s.client, 'timeline', { anchor });
    expect(r.anchor).toMatchObject({ id: anchor, path: 'daily/2026-11-19.md', section: '2026-11-19 > Range test', type: 'daily' });
    expect(r.anchor.text).toBe('Range test in the park: 1.2 km with the quarter-wave whip.');
    expect(r.before.map((x: any) => x.section)).toEqual(['2026-11-19', '2026-11-19 > Morning']);
    expect(r.after.map((x: any) => x.section)).toEqual(['2026-11-19 > Evening']);
    expect(r.before[1]).toEqual({ id: expect.any(Number), section: '2026-11-19 > Morning', line: 7, end_line: 9, preview: 'Coffee and planning.' });
    expect(r.days_before.map((d: any) => d.path)).toEqual(['daily/2026-11-18.md']);
    expect(r.days_after.map((d: any) => d.path)).toEqual(['daily/2026-11-20.md']);
    expect(r.days_after[0]).toMatchObject({ date: '2026-11-20', title: '2026-11-20', preview: 'Fixed the distance display.' });
    expect(r.days_after[0].sections.map((x: any) => x.section)).toEqual(['2026-11-20 > Work']);
  });

  it('honours and clamps before/after', async () => {
    const anchor = await s.sectionId('knowledge/long.md', 'Part 15');
    const one = await ok(s.client, 'timeline', { anchor, before: 1, after: 2 });
    expect(one.before.map((x: any) => x.section)).toEqual(['Long note > Part 14']);
    expect(one.after.map((x: any) => x.section)).toEqual(['Long note > Part 16', 'Long note > Part 17']);
    const none = await ok(s.client, 'timeline', { anchor, before: -3, after: 0 });
    expect(none.before).toEqual([]);
    expect(none.after).toEqual([]);
    const all = await ok(s.client, 'timeline', { anchor, before: 1e9, after: 1e9 });
    expect(all.before).toHaveLength(15); // the H1 section and parts 1–14
    expect(all.after).toHaveLength(15);
    expect(all).not.toHaveProperty('days_before');
  });

  it('returns empty neighbour lists at the edges of a note', async () => {
    const anchor = await s.sectionId('daily/2026-11-18.md', 'Work');
    const r = await ok(s.client, 'timeline', { anchor, before: 0, after: 5 });
    expect(r.after).toEqual([]);
    expect(r.days_before).toEqual([]);
  });

  it('fails for an unknown anchor', async () => {
    expect(await fails(s.client, 'timeline', { anchor: 987_654 })).toMatch(/^anchor section not found: 987654/);
  });
});
