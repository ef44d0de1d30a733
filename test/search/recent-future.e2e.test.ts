// A range that runs up to now (`--recent 1y`, a query's `recently`, `past year`, `this year`) was open at its
// end: it held every note dated ahead, so `--recent 1y` listed a note dated next June. It ends with tomorrow
// now (dates.ts upToNow: a day of slack for a note written where it is tomorrow already), for the flag, the
// query's words and the prompt hook alike. Days are the clock's (the hook reads no TSM_NOW), in local time.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ymd, addDays } from '../../src/search/dates.js';
import { makeVault, tsm } from '../helpers/cli.js';
import { child, elements, parseXml, textOf } from '../format/xml-tree.js';

const today = new Date();
const day = (n: number) => ymd(addDays(today, n));
const note = (n: number, word: string) => `---\ndate: ${day(n)}\n---\nThe kiwi ${word}.\n`;

let v: { dir: string; cleanup: () => void };
const paths = (args: string[]) => {
  const r = tsm(['search', ...args, '-f', 'json'], { cwd: v.dir });
  expect(r.code, r.stderr).toBe(0);
  return (JSON.parse(r.stdout) as { path: string }[]).map((h) => h.path);
};

beforeAll(() => {
  v = makeVault({
    'today.md': note(0, 'today'),
    'tomorrow.md': note(1, 'tomorrow'),
    'day-after.md': note(2, 'day after tomorrow'),
    // More kiwi than the others: it ranks first where a range lets it in.
    'next-year.md': note(200, 'planned, kiwi upon kiwi'),
    'old.md': note(-800, 'old'),
  });
  expect(tsm(['init'], { cwd: v.dir }).code).toBe(0);
  const r = tsm(['index'], { cwd: v.dir });
  expect(r.code, r.stderr).toBe(0);
});
afterAll(() => v.cleanup());

describe('a range up to now', () => {
  it('--recent holds today and tomorrow, no later day', () => {
    expect(paths(['kiwi', '--recent', '1y']).sort()).toEqual(['today.md', 'tomorrow.md']);
    expect(paths(['kiwi', '--recent', '1d']).sort()).toEqual(['today.md', 'tomorrow.md']);
    // The date flags that name an end keep it: --after alone is open, as the user wrote it.
    expect(paths(['kiwi', '--after', day(-1)]).sort()).toEqual(['day-after.md', 'next-year.md', 'today.md', 'tomorrow.md']);
  });

  it("a query's `recently` lists today and tomorrow, not the notes dated ahead", () => {
    expect(paths(['recently'])).toEqual(['tomorrow.md', 'today.md']);
    const r = tsm(['search', 'kiwi recently', '-f', 'json'], { cwd: v.dir });
    expect(r.stderr).toContain(`dated from ${day(-30)} to before ${day(2)} (read from the query) first`);
    expect(paths(['kiwi recently']).slice(0, 2).sort()).toEqual(['today.md', 'tomorrow.md']);
  });

  it("the prompt hook's `recently` puts today's and tomorrow's notes first, the later ones after", () => {
    const payload = { session_id: 's1', transcript_path: `${v.dir}/s1.jsonl`, cwd: v.dir, hook_event_name: 'UserPromptSubmit', prompt: 'what about the kiwi recently' };
    const r = tsm(['hook'], { cwd: v.dir, input: JSON.stringify(payload) });
    expect(r.code, r.stderr).toBe(0);
    const xml = parseXml((JSON.parse(r.stdout) as { hookSpecificOutput: { additionalContext: string } }).hookSpecificOutput.additionalContext);
    const sources = elements(xml, 'result').map((e) => textOf(child(e, 'source')));
    expect(sources.slice(0, 2).sort()).toEqual(['today.md', 'tomorrow.md']);
  });
});
