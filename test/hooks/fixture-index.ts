// Sample notes for the hook tests, written as markdown files and indexed by the real sync
// (test/helpers/fixture-vault.ts), so the index is exactly what `tsm index` makes of them.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { NoteType } from '../../src/core/types.js';
import { frontmatterText, indexFixtureVault, type FixtureFile } from '../helpers/fixture-vault.js';

export interface TestSection {
  heading: string;
  /** 0 for the lead section, else 1–6. */
  level: number;
  text: string;
}

export interface TestNote {
  path: string;
  title: string;
  type: NoteType;
  status?: string | null;
  date: string;
  frontmatter?: Record<string, unknown>;
  sections: TestSection[];
  mtimeMs?: number;
}

/** A note as its markdown file: frontmatter (type, status, date, title and extras), then each section. */
export function noteFile(n: TestNote): FixtureFile {
  const fm = { type: n.type, status: n.status ?? undefined, date: n.date, title: n.title, ...n.frontmatter };
  const body = n.sections.map((s) => (s.level > 0 ? `${'#'.repeat(s.level)} ${s.heading}\n\n${s.text}\n` : `${s.text}\n`));
  return { content: frontmatterText(fm) + body.join('\n'), mtimeMs: n.mtimeMs ?? Date.parse(`${n.date}T12:00:00Z`) };
}

/** Writes `notes` into `vault` and indexes them into `<vault>/.tsm/index.db`. */
export async function writeIndex(vault: string, notes: TestNote[]): Promise<void> {
  await indexFixtureVault(vault, Object.fromEntries(notes.map((n) => [n.path, noteFile(n)])));
}

export const SAMPLE_NOTES: TestNote[] = [
  {
    path: 'knowledge/lora/lora-module-guide.md',
    title: 'LoRa通信モジュール選定ガイド',
    type: 'knowledge',
    status: 'current',
    date: '2026-03-01',
    sections: [
      { heading: '概要', level: 2, text: 'LoRa通信モジュールの選定基準と各製品の比較。E220-900T22S は技適取得済み。' },
      { heading: 'Antenna', level: 2, text: 'Antenna gain & "quotes" <tags> matter for range: a 3 dBi whip doubles the LoRa range.' },
    ],
  },
  {
    path: 'daily/2026-11-19.md',
    title: '2026-11-19',
    type: 'daily',
    date: '2026-11-19',
    sections: [{ heading: 'Range test', level: 2, text: 'LoRa range test at the river: 2.1 km with the whip antenna.' }],
  },
  {
    path: 'knowledge/dev/build-setup.md',
    title: 'Build setup',
    type: 'knowledge',
    status: 'archived',
    date: '2025-01-10',
    sections: [{ heading: 'PlatformIO', level: 2, text: 'pio run -e receiver builds the receiver firmware.' }],
  },
  {
    path: 'sessions/2026-11-20-dog-tracker-fw-3f9a2c1e.md',
    title: 'dog-tracker-fw: 受信機の距離表示がおかしい',
    type: 'session',
    date: '2026-11-20',
    frontmatter: {
      type: 'session',
      session_id: '3f9a2c1e-7b4d-4e21-9c0a-5d8e6f1b2a34',
      project: 'dog-tracker-fw',
      started: '2026-11-20T09:00:00Z',
      ended: '2026-11-20T10:00:00Z',
    },
    sections: [
      { heading: '1. 受信機の距離表示がおかしい', level: 2, text: '受信機の距離表示が実際の60倍くらいになってる。' },
      { heading: 'Actions', level: 3, text: '- Read src/geo/geo.c\n- Bash `grep -rn haversine src` → ok' },
      { heading: 'Answer', level: 3, text: '度のまま sin() に渡しています。' },
      { heading: '2. ありがとう', level: 2, text: 'ありがとう' },
      { heading: '3. 直して、テストも追加して', level: 2, text: '直して、テストも追加して。' },
      { heading: 'Actions', level: 3, text: '- Edit src/geo/geo.c\n- Edit test/test_geo.c\n- Bash `pio test` → ok' },
    ],
  },
];

export interface TestVault {
  dir: string;
  db: string;
  cleanup: () => void;
}

/** A temporary vault with `.tsm/` and, unless `index` is false, the files and an index of `notes`. */
export async function makeIndexedVault(
  notes: TestNote[] = SAMPLE_NOTES,
  opts: { index?: boolean; files?: Record<string, string> } = {},
): Promise<TestVault> {
  const dir = mkdtempSync(join(tmpdir(), 'tsm-hooks-'));
  mkdirSync(join(dir, '.tsm'), { recursive: true });
  for (const [rel, text] of Object.entries(opts.files ?? {})) {
    mkdirSync(dirname(join(dir, rel)), { recursive: true });
    writeFileSync(join(dir, rel), text);
  }
  const db = join(dir, '.tsm', 'index.db');
  if (opts.index !== false) await writeIndex(dir, notes);
  return { dir, db, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}
