// End to end: SessionStart's recent intents come from the sessions that ended last, even when the files'
// modification times say otherwise — a vault synced or pulled from another machine, where every session note
// was written at the pull. The newest 20 session notes of the day were taken by modification time: with 30
// sessions that day, the intents came from whichever 20 the pull wrote last.
import { removeTree } from '../helpers/remove-tree.js';
import { mkdtempSync, utimesSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { tsm } from '../helpers/cli.js';

let work: string;
beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'tsm-ss-order-'));
});
afterAll(() => removeTree(work));

it('recent intents are those of the sessions that ended last, whatever the files’ modification times', () => {
  const vault = join(work, 'vault');
  mkdirSync(join(vault, '.tsm'), { recursive: true });
  mkdirSync(join(vault, 'sessions'));
  const day = Date.UTC(2026, 5, 10, 6, 0, 0);
  const pulled = Date.UTC(2026, 5, 10, 13, 30, 0) / 1000;
  for (let i = 0; i < 30; i++) {
    // Session i ran from 06:00 + 10 i minutes, for 5 minutes; the pull wrote the oldest last.
    const started = new Date(day + i * 600_000).toISOString();
    const ended = new Date(day + i * 600_000 + 300_000).toISOString();
    const id = `${String(i).padStart(8, '0')}-0000-4000-8000-000000000000`;
    const path = join(vault, 'sessions', `2026-06-10-radio-${id.slice(0, 8)}.md`);
    writeFileSync(
      path,
      `---\ntype: session\nsession_id: "${id}"\nproject: radio\ncwd: /home/me/radio\nstarted: "${started}"\nended: "${ended}"\ntags: [session, radio]\n---\n\n` +
        `# radio: session ${i}\n\n## 1. tune relay ${i}\n\n### Actions\n\n- Edit \`src/relay${i}.c\`\n\n### Answer\n\nrelay ${i} tuned.\n`,
    );
    utimesSync(path, pulled + (30 - i), pulled + (30 - i));
  }
  const env = { TZ: 'UTC', TSM_NOW: '2026-06-10T14:00:00Z' };
  expect(tsm(['index', '--vault', vault], { env }).code).toBe(0);
  const r = tsm(['hook', '--vault', vault], { env, input: JSON.stringify({ hook_event_name: 'SessionStart', source: 'startup', session_id: 's', cwd: '/home/me/radio' }) });
  expect(r.code, r.stderr).toBe(0);
  const md = JSON.parse(r.stdout).hookSpecificOutput.additionalContext as string;
  const intents = [...md.matchAll(/^- \[[^\]]*\] "tune relay (\d+)"/gm)].map((m) => Number(m[1]));
  expect(intents).toEqual([29, 28, 27, 26, 25, 24, 23, 22]);
});
