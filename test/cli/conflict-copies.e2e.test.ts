// A vault kept in Dropbox, Syncthing, OneDrive, Google Drive or Obsidian Sync gets conflicted copies of notes
// beside them, each named by its tool. Nothing told the user they were there (tsm status and doctor said
// nothing; searches just found the note twice): tsm doctor lists them by those names, and only them, and
// touches no file.
import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { makeVault, tsm } from '../helpers/cli.js';

interface Problem {
  check: string;
  severity: string;
  message: string;
  fix: string;
}

const NOTE = '# Gateway\n\nThe LoRa gateway sits on the roof.\n';

describe('tsm doctor: conflicted copies', () => {
  it("lists each sync tool's conflicted copies with their original, and no note of the user's", () => {
    const copies = [
      'gateway (conflicted copy 2026-11-28).md', // Dropbox
      "gateway (Jane Doe's conflicted copy 2026-11-28).md", // Dropbox, older clients
      'gateway (Selective Sync Conflict).md', // Dropbox
      'gateway.sync-conflict-20261128-101010-ABCDEFG.md', // Syncthing
      'daily/2026-03-12 (Conflicted copy ThinkPad-T14-G5 202603121129).md', // Obsidian Sync
      'gateway-DESKTOP-1A2B3C4.md', // OneDrive, beside its original
      'gateway (1).md', // Google Drive, beside its original
      'old/plan.sync-conflict-20261128-101010.md', // its original gone: still a copy to merge
    ];
    const own = [
      'Part.md',
      'Part 2.md', // iCloud names a copy so too, but so does a user
      'Chapter (1).md', // no Chapter.md beside it
      'notes-DESKTOP-1A2B3C4.md', // no notes.md beside it
      'conflicted copy handling.md',
      'daily/2026-03-12.md',
    ];
    const v = makeVault(Object.fromEntries([...copies, ...own, 'gateway.md'].map((p) => [p, NOTE + 'See [[gateway]].\n'])));
    try {
      expect(tsm(['index', '--vault', v.dir]).code).toBe(0);
      const r = tsm(['doctor', '--json', '--vault', v.dir]);
      const found = (JSON.parse(r.stdout).problems as Problem[]).filter((p) => p.check === 'copies');
      expect(found).toHaveLength(1);
      expect(found[0].severity).toBe('info');
      expect(found[0].message).toMatch(/^8 notes named as a sync tool names its conflicted copies: /);
      const listed = found[0].message.replace(/^[^:]*: /, '');
      expect(listed).toContain('gateway (Selective Sync Conflict).md (of gateway.md)');
      expect(listed).toContain('daily/2026-03-12 (Conflicted copy ThinkPad-T14-G5 202603121129).md (of daily/2026-03-12.md)');
      expect(listed).toContain('gateway (1).md (of gateway.md)');
      expect(listed).toContain('old/plan.sync-conflict-20261128-101010.md (of old/plan.md, not in the vault)');
      for (const c of copies) expect(listed).toContain(`${c} (of `);
      for (const o of own) expect(listed).not.toContain(`${o} (of`);
      // tsm changes no file, and [[gateway]] is still the original.
      expect(readdirSync(v.dir)).toEqual(expect.arrayContaining(copies.filter((c) => !c.includes('/'))));
      expect(tsm(['related', 'gateway (1).md', '--vault', v.dir]).stdout).toMatch(/backlinks \(0\)/);
      // A vault without copies gets no such line.
      const plain = makeVault({ 'gateway.md': NOTE, 'Part 2.md': NOTE, 'Part.md': NOTE });
      try {
        expect(tsm(['index', '--vault', plain.dir]).code).toBe(0);
        expect(tsm(['doctor', '--vault', plain.dir]).stdout).not.toContain('copies:');
      } finally {
        plain.cleanup();
      }
    } finally {
      v.cleanup();
    }
  });
});
