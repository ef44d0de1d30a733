// A transcript is folded in time linear in its lines: a session of many prompts, or one prompt of many tool
// uses (a long agent run), is ingested by a Stop hook with a 20 s deadline. 200,000 lines of 50,000
// prompts took 32 s (each prompt numbered by counting the prompts before it), and 200,000 lines of one
// prompt's 100,000 tool uses 27 s (each tool use checked against every action of its prompt). The inputs
// below took 4 s and 6 s that way. A synchronous call cannot be stopped by a test timeout, so the time is
// measured: how it grows with the input tells linear from quadratic, a busy machine or a slow one alike.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ingestTranscript } from '../../src/sessions/ingest.js';
import { applyTranscriptLines } from '../../src/sessions/transcript.js';
import { growth } from '../helpers/timed.js';

const SID = '7f3c2a91-5b1e-4c8d-9a0f-2e6b8d4c1a37';
const line = (o: object) => JSON.stringify({ sessionId: SID, cwd: '/home/dev/p', timestamp: '2026-11-01T06:46:47.000Z', ...o });
const user = (content: unknown) => line({ type: 'user', message: { role: 'user', content } });
const toolUse = (i: number) =>
  line({ type: 'assistant', message: { role: 'assistant', id: `m${i}`, content: [{ type: 'tool_use', id: `tu${i}`, name: 'Bash', input: { command: `echo ${i}` } }] } });
const toolResult = (i: number) => user([{ type: 'tool_result', tool_use_id: `tu${i}`, content: `out ${i}` }]);

// Linear folding takes about 4× as long for 4× the lines: 3.9–4.5 here. The quadratic code took 14–26× (at
// d9159be~1: prompts 25.8, tool uses 23.2, subagents 16.9; at 39933c8~1, subagents 14.4). A wall-time bound
// told the machine as well: 30,000 tool uses, 450–630 ms quiet, took 1,506 and then 1,654 ms (best of 3) in
// fresh-clone CI runs on a loaded machine, against 1,500.
const LINEAR = 8;
const fold = (make: (n: number) => string[]) => (n: number) => {
  const lines = make(n);
  return () => applyTranscriptLines(null, lines, SID);
};

describe('folding a huge transcript', () => {
  it('numbers 30,000 prompts in linear time', () => {
    const prompts = (n: number) => Array.from({ length: n }, (_, i) => user(`prompt ${i} about the antenna`));
    const { ratio, value: model } = growth(fold(prompts), 7_500, 4);
    expect(model.prompts.map((p) => p.n)).toEqual(Array.from({ length: 30_000 }, (_, i) => i + 1));
    expect(ratio).toBeLessThan(LINEAR);
  });

  it('keeps 30,000 tool uses of one prompt, each once, in linear time', () => {
    const toolUses = (n: number) => {
      const lines = [user('run the whole test matrix')];
      for (let i = 0; i < n; i++) lines.push(toolUse(i), toolUse(i), toolResult(i)); // each block written twice
      return lines;
    };
    const { ratio, value: model } = growth(fold(toolUses), 7_500, 4);
    expect(model.prompts).toHaveLength(1);
    expect(model.prompts[0].actions).toHaveLength(30_000);
    expect(model.prompts[0].actions.every((a) => a.exitStatus === 'ok')).toBe(true);
    expect(ratio).toBeLessThan(LINEAR);
  });

  it("places 50,000 subagents' file reads with their Task calls in linear time", () => {
    // Each agent_progress line names its Task call (parentToolUseID); the prompt holding that call was found
    // by checking every action of every prompt (Array.some): 50,000 took about 5 s, ~1.6 s now.
    const subagents = (n: number) => {
      const lines = [user('review every module with a subagent each')];
      for (let i = 0; i < n; i++) {
        lines.push(line({ type: 'assistant', message: { role: 'assistant', id: `t${i}`, content: [{ type: 'tool_use', id: `task${i}`, name: 'Task', input: { description: `module ${i}`, prompt: 'review it' } }] } }));
        lines.push(
          line({
            type: 'progress',
            parentToolUseID: `task${i}`,
            data: { type: 'agent_progress', message: { type: 'assistant', message: { role: 'assistant', content: [{ type: 'tool_use', id: `r${i}`, name: 'Read', input: { file_path: `/home/dev/p/src/m${i}.ts` } }] } } },
          }),
        );
      }
      return lines;
    };
    const { ratio, value: model } = growth(fold(subagents), 12_500, 4);
    expect(model.prompts).toHaveLength(1);
    expect(model.prompts[0].agentFiles).toHaveLength(50_000);
    expect(ratio).toBeLessThan(LINEAR);
  });

  // Past what a call's arguments hold (about 125,000): 150,000 prompts, or one prompt's 150,000 tool uses,
  // failed `tsm ingest-session` with 'Maximum call stack size exceeded' (Math.max(...) over the prompts'
  // numbers, push(...) of the rendered action lines).
  it('writes the note of 150,000 prompts, and of one prompt with 150,000 tool uses', () => {
    const root = mkdtempSync(join(tmpdir(), 'tsm-huge-session-'));
    try {
      const vault = join(root, 'vault');
      mkdirSync(vault);
      // Two sessions, though their lines carry one id: each its own folders (one id is one session's state).
      const ingest = (name: string, lines: string[]) => {
        const file = join(root, name);
        writeFileSync(file, lines.join('\n') + '\n');
        return ingestTranscript(file, { vault, sessionsDir: join(vault, name), stateDir: join(vault, '.tsm', name) });
      };
      const prompts = ingest('prompts.jsonl', Array.from({ length: 150_000 }, (_, i) => user(`prompt ${i} about the antenna`)));
      expect(prompts.prompts).toBe(150_000);
      const tools = [user('run the whole test matrix')];
      for (let i = 0; i < 150_000; i++) tools.push(toolUse(i), toolResult(i));
      const run = ingest('tools.jsonl', tools);
      expect(run.prompts).toBe(1);
      expect(readFileSync(run.notePath, 'utf8')).toContain('echo 149999');
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  }, 60_000);
});
