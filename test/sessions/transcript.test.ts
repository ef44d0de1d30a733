import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { applyTranscriptLines, foldTranscriptLines } from '../../src/sessions/transcript.js';
import { projectName, type SessionModel } from '../../src/sessions/model.js';
import { promptFromUserText } from '../../src/sessions/user-message.js';
import { fixtureLines, fixtureNames } from './helpers.js';

const MAIN = 'claude-code-2.0.76-main.jsonl';
const SIDECHAIN = 'claude-code-2.0.76-sidechain.jsonl';
const PLAN = 'claude-code-2.1.38-plan-subagent-session.jsonl';
const COMPACTION = 'claude-code-2.1.39-compaction-excerpt.jsonl';
const SYNTHETIC = 'synthetic-session.jsonl';

const load = (name: string) => applyTranscriptLines(null, fixtureLines(name), 'fallback-id');
const actions = (model: SessionModel) => model.prompts.flatMap((p) => p.actions);

function toolTally(model: SessionModel): Record<string, number> {
  const tally: Record<string, number> = {};
  for (const action of actions(model)) tally[action.tool] = (tally[action.tool] ?? 0) + 1;
  return tally;
}

describe('real transcript: Claude Code 2.0.76 main session', () => {
  const model = load(MAIN);

  it('reads the session facts from the lines', () => {
    expect(model.sessionId).toBe('c45af7b1-cb7c-4e51-93db-8cbb250a877a');
    expect(model.cwd).toBe('/workspace');
    expect(model.project).toBe('workspace');
    expect(model.gitBranch).toBeNull(); // "" in the transcript
    expect(model.started).toBe('2026-01-02T19:18:31.028Z');
    expect(model.ended).toBe('2026-01-02T19:21:02.108Z');
  });

  it('finds the five typed prompts and the /compact command, nothing else', () => {
    expect(model.prompts.map((p) => p.text)).toEqual([
      'can you run a command ls -la',
      'ok can you create a hello_world.py file and add a minimal code in it?',
      'can you read it back with Read tool?',
      'can you run `cat nonexistent.txt`',
      'do something requiring multiple tools in one turn,',
      '/compact',
    ]);
    expect(model.prompts.map((p) => p.n)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(model.prompts[0].timestamp).toBe('2026-01-02T19:18:31.028Z');
  });

  it('records every tool use under its prompt, with exit statuses from the tool results', () => {
    expect(toolTally(model)).toEqual({ Bash: 5, Write: 3, Read: 2 });
    const status = (n: number) => model.prompts[n - 1].actions.map((a) => `${a.tool}:${a.summary}:${a.exitStatus}`);
    expect(status(1)).toEqual(['Bash:ls -la:ok']);
    expect(status(4)).toEqual(['Bash:cat nonexistent.txt:error']);
    expect(status(5)).toEqual([
      'Write:number_generator.py:ok',
      'Write:data.txt:ok',
      'Read:data.txt:ok',
      'Bash:python /workspace/number_generator.py:error',
      'Bash:ls -lh /workspace/*.txt /workspace/number_generator.py:ok',
      'Bash:python3 /workspace/number_generator.py:ok',
    ]);
  });

  it('keeps why a tool failed: the first telling line of its error, not the whole output', () => {
    const errors = actions(model).flatMap((a) => (a.exitStatus === 'error' ? [[a.summary, a.error]] : []));
    expect(errors).toEqual([
      ['cat nonexistent.txt', 'cat: nonexistent.txt: No such file or directory'],
      ['python /workspace/number_generator.py', '/bin/bash: line 1: python: command not found'],
    ]);
    expect(actions(model).filter((a) => a.exitStatus !== 'error').every((a) => a.error === undefined)).toBe(true);
  });

  it('takes the last text of each turn as its answer, never thinking', () => {
    expect(model.prompts[0].answer.startsWith("Done! Here's the output of `ls -la`")).toBe(true);
    expect(model.prompts[4].answer.startsWith("Great! Here's what I did across multiple tool calls:")).toBe(true);
    expect(model.prompts[5].answer).toBe('');
    expect(JSON.stringify(model)).not.toContain('The user is asking me to run the command');
  });

  it('keeps the compaction summary, caveat and local command output out of the prompts', () => {
    const text = JSON.stringify(model);
    expect(text).not.toContain('This session is being continued');
    expect(text).not.toContain('Caveat: The messages below');
    expect(text).not.toContain('Compacted (ctrl+o');
  });

  it('derives the file and command lists, paths relative to the working directory', () => {
    expect(model.filesRead).toEqual(['hello_world.py', 'data.txt']);
    expect(model.filesEdited).toEqual(['hello_world.py', 'number_generator.py', 'data.txt']);
    expect(model.commands).toEqual([
      'ls -la',
      'cat nonexistent.txt',
      'python /workspace/number_generator.py',
      'ls -lh /workspace/*.txt /workspace/number_generator.py',
      'python3 /workspace/number_generator.py',
    ]);
  });
});

describe('real transcript: Claude Code 2.1.38 session with a plan subagent', () => {
  const model = load(PLAN);

  it('records the plugin slash command with its arguments, then the typed prompt', () => {
    expect(model.prompts).toHaveLength(2);
    expect(model.prompts[0].text).toBe(
      '/handgemacht:create-beads websearch to learn how to fastest setup credo, dialyzer, mix_audit (basically all supported by https://github.com/bradleygolden/claude-marketplace-elixir)\n\nMaybe there are igniter scripts?',
    );
    expect(model.prompts[1].text).toBe('create the beads');
  });

  it('skips the expanded command body, the interruption marker and the subagent progress stream', () => {
    const text = JSON.stringify(model);
    expect(text).not.toContain('> **SCOPE**');
    expect(text).not.toContain('[Request interrupted by user]');
    // agent_progress lines carry the Plan agent's own messages; only the Task call itself is an action.
    expect(toolTally(model)).toEqual({
      WebSearch: 5,
      Bash: 4,
      WebFetch: 1,
      Glob: 1,
      Read: 1,
      AskUserQuestion: 1,
      Task: 1,
      Write: 1,
      ExitPlanMode: 1,
    });
  });

  it('summarises web, search and agent tools by their subject', () => {
    const byTool = (tool: string) => actions(model).find((a) => a.tool === tool);
    expect(byTool('Glob')?.summary).toBe('**/mix.exs');
    expect(byTool('WebFetch')?.summary).toBe('https://github.com/bradleygolden/claude-marketplace-elixir');
    expect(byTool('Task')?.summary).toBe('Plan: Draft beads for linting setup');
  });

  it("keeps the user's answers to AskUserQuestion: they are the session's decisions", () => {
    // The result line's toolUseResult holds the questions (with their short headers) and the answers chosen.
    expect(actions(model).find((a) => a.tool === 'AskUserQuestion')?.summary).toBe('Rig prefix: No rig; Tools: Credo + Dialyxir + mix_audit');
  });

  it('names what AskUserQuestion asks until the answers arrive, and keeps that when it was refused', () => {
    const ask = (id: string, ts: string) => ({
      type: 'assistant',
      timestamp: ts,
      message: {
        id: `m-${id}`,
        role: 'assistant',
        content: [{ type: 'tool_use', id, name: 'AskUserQuestion', input: { questions: [{ question: 'Which database?', header: 'DB' }, { question: 'Deploy where?' }] } }],
      },
    });
    const refused = {
      type: 'user',
      message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't2', is_error: true, content: "The user doesn't want to proceed with this tool use." }] },
      toolUseResult: 'User rejected tool use',
    };
    const lines = [{ type: 'user', message: { role: 'user', content: 'pick a stack' } }, ask('t1', '2026-01-01T00:00:01Z'), ask('t2', '2026-01-01T00:00:02Z'), refused];
    const m = applyTranscriptLines(null, lines.map((l) => JSON.stringify(l)), 'x');
    expect(m.prompts[0].actions.map((a) => [a.summary, a.exitStatus])).toEqual([
      ['DB; Deploy where?', undefined],
      ['DB; Deploy where?', 'refused'],
    ]);
  });

  it('redacts an answer the user typed (an "Other" answer) like any text of theirs', () => {
    const lines = [
      { type: 'user', message: { role: 'user', content: 'set up the deploy' } },
      { type: 'assistant', message: { id: 'm1', role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'AskUserQuestion', input: { questions: [{ question: 'Token?', header: 'Deploy' }] } }] } },
      {
        type: 'user',
        message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: 'User has answered your questions: …' }] },
        toolUseResult: { questions: [{ question: 'Token?', header: 'Deploy' }], answers: { 'Token?': 'use ghp_0123456789abcdefghijklmnopqrstuvwxyzAB\nthen go' } },
      },
    ];
    const m = applyTranscriptLines(null, lines.map((l) => JSON.stringify(l)), 'x');
    expect(m.prompts[0].actions[0].summary).toBe('Deploy: use [REDACTED] then go');
  });

  it('keeps whole commands on the action and one line per command in the list', () => {
    const first = actions(model).find((a) => a.tool === 'Bash');
    expect(first?.command?.split('\n').length).toBeGreaterThan(3);
    expect(model.commands[0]).toMatch(/^bd create --title="Setup Code Quality Tools.* …$/);
    expect(model.commands.every((c) => !c.includes('\n'))).toBe(true);
  });

  it("counts the files the Plan agent read (agent_progress) as the session's, without listing its tool uses as actions", () => {
    // The agent read the project folder itself (EISDIR), mix.exs (a sibling call failed, then again: ok),
    // .beads/issues.jsonl and config/config.exs; its Bash commands are not the session's commands.
    expect(model.filesRead).toEqual(['mix.exs', '.beads/issues.jsonl', 'config/config.exs']);
    expect(model.commands.some((c) => c.startsWith('ls -la') || c.startsWith('git log'))).toBe(false);
    expect(JSON.stringify(model)).not.toContain('defmodule Spotter');
  });

  it('dates the session from its first line, a SessionStart progress event', () => {
    expect(model.started).toBe('2026-02-10T21:54:15.897Z');
    expect(model.gitBranch).toBe('master');
  });
});

describe('real transcript: Claude Code 2.1.39 excerpt with an auto compaction mid-turn', () => {
  const model = load(COMPACTION);

  it('keeps activity before the first prompt under prompt 0', () => {
    expect(model.prompts).toHaveLength(1);
    expect(model.prompts[0].n).toBe(0);
    expect(model.prompts[0].text).toBe('');
  });

  it('continues the same turn across the compaction', () => {
    expect(toolTally(model)).toEqual({ Read: 4, Edit: 3, Grep: 2, Write: 2, Bash: 1 });
    expect(actions(model).every((a) => a.exitStatus === 'ok')).toBe(true);
    expect(JSON.stringify(model)).not.toContain('This session is being continued');
  });

  it('takes the answer from the last text after the compaction', () => {
    expect(model.prompts[0].answer).toBe('Now add the toggle event handler to SessionLive:');
  });
});

describe('real transcript: a sidechain (subagent) file', () => {
  it('has session facts but no prompts and no actions', () => {
    const model = load(SIDECHAIN);
    expect(model.sessionId).toBe('c45af7b1-cb7c-4e51-93db-8cbb250a877a');
    expect(model.prompts).toEqual([]);
  });
});

describe('synthetic transcript with every line type', () => {
  const model = load(SYNTHETIC);

  it('finds exactly the typed prompts, slash commands and shell-mode input', () => {
    expect(model.prompts.map((p) => p.text.split('\n')[0])).toEqual([
      'Fix the ranking bug in src/search/rank.ts',
      '/review src/search --strict',
      '# Plan',
      'What about this screenshot? Password=[REDACTED] is shown in it.',
      '! git status --short',
    ]);
  });

  it('merges the text blocks of one message written over several lines', () => {
    expect(model.prompts[0].answer).toBe(
      'Fixed: the recency decay divided by the half-life in **hours** instead of days, so every note older than a few hours scored as stale.\n\n' +
        'The change is one line in `src/search/rank.ts`; all 41 search tests pass now.',
    );
  });

  it('sets exit statuses from is_error and from a string toolUseResult', () => {
    const [, , failedEdit, , bash] = model.prompts[0].actions;
    expect(failedEdit).toMatchObject({ tool: 'Edit', path: 'src/search/recency.ts', exitStatus: 'error' });
    expect(bash).toMatchObject({ tool: 'Bash', exitStatus: 'ok' });
    expect(model.prompts[1].actions[1]).toMatchObject({ tool: 'Bash', exitStatus: 'error' });
  });

  it('counts only successful reads and edits as files read/edited', () => {
    expect(model.filesRead).toEqual(['src/search/rank.ts']);
    expect(model.filesEdited).toEqual(['src/search/rank.ts', 'test/search/rank.test.ts', 'docs/search.md', '/tmp/analysis.ipynb']);
  });

  it('ignores sidechain lines, the compaction summary and the cut last line', () => {
    const text = JSON.stringify(model);
    expect(text).not.toContain('/etc/passwd');
    expect(text).not.toContain('Warmup');
    expect(text).not.toContain('This session is being continued');
    expect(text).not.toContain('please also update the changelog');
    expect(model.prompts[2].actions.map((a) => a.tool)).toEqual(['Write', 'TodoWrite', 'mcp__tsm__search', 'MultiEdit', 'NotebookEdit']);
  });

  it('never keeps private text, injected reminders, thinking or secrets', () => {
    const text = JSON.stringify(model);
    for (const leaked of [
      'hunter2',
      'db.internal',
      'CLAUDE.md says',
      'Malware',
      'system-reminder',
      'sk-ant-api03',
      'ghp_aB3dE5',
      'AKIAIOSFODNN7EXAMPLE',
      'eyJhbGciOiJIUzI1NiJ9',
      'Tr0ub4dor',
      'The password is',
    ]) {
      expect(text, leaked).not.toContain(leaked);
    }
    expect(model.prompts[0].text).toContain('My Anthropic key is [REDACTED] if you need');
  });

  it('marks images in prompts', () => {
    expect(model.prompts[3].text).toContain('[image]');
  });
});

describe('folding is incremental', () => {
  for (const name of fixtureNames()) {
    it(`gives the same model for ${name} at every split point`, () => {
      const lines = fixtureLines(name);
      const whole = applyTranscriptLines(null, lines, 'fallback-id');
      for (let cut = 0; cut <= lines.length; cut++) {
        const first = applyTranscriptLines(null, lines.slice(0, cut), 'fallback-id');
        expect(applyTranscriptLines(first, lines.slice(cut), 'fallback-id'), `cut at line ${cut}`).toEqual(whole);
      }
    });
  }

  it('does not modify the model it is given', () => {
    const lines = fixtureLines(MAIN);
    const first = applyTranscriptLines(null, lines.slice(0, 20), 'x');
    const snapshot = structuredClone(first);
    applyTranscriptLines(first, lines.slice(20), 'x');
    expect(first).toEqual(snapshot);
  });
});

describe('defensive parsing', () => {
  const line = (value: unknown) => JSON.stringify(value);

  it('uses the fallback session id until a line names the session', () => {
    expect(applyTranscriptLines(null, [], 'from-file-name').sessionId).toBe('from-file-name');
    const named = applyTranscriptLines(null, [line({ type: 'summary', summary: 'x' }), line({ type: 'user', sessionId: 'abc', message: { content: 'hi' } })], 'f');
    expect(named.sessionId).toBe('abc');
    const later = applyTranscriptLines(named, [line({ type: 'user', sessionId: 'other', message: { content: 'x' } })], 'f');
    expect(later.sessionId).toBe('abc');
  });

  it('trusts a file name that is a session id over ids inside the lines', () => {
    const id = '11111111-2222-4333-8444-555555555555';
    const model = applyTranscriptLines(null, [line({ type: 'user', sessionId: 'copied-from-elsewhere', message: { content: 'x' } })], id);
    expect(model.sessionId).toBe(id);
  });

  it('survives junk: non-objects, missing fields, wrong types, invalid JSON, blank lines', () => {
    const junk = [
      '',
      '   ',
      'null',
      '[]',
      '42',
      '"text"',
      '{not json',
      line({ type: 'user' }),
      line({ type: 'user', message: null }),
      line({ type: 'user', message: { content: [null, 1, 'x', { type: 'tool_result' }] } }),
      line({ type: 'assistant', message: { content: [{ type: 'tool_use' }, { type: 'text' }, null] } }),
      line({ type: 'assistant', message: { content: 'plain string answer' } }),
      line({ type: 'user', message: { content: 'a real prompt' }, timestamp: 'not a date', cwd: 42, gitBranch: {} }),
      line({ type: 'weird-new-type', payload: { deep: [1, 2] } }),
    ];
    const model = applyTranscriptLines(null, junk, 'f');
    // The message holding a tool_result block is a tool answer, so the assistant lines go to prompt 0.
    expect(model.prompts.map((p) => [p.n, p.text])).toEqual([
      [0, ''],
      [1, 'a real prompt'],
    ]);
    expect(model.prompts[0].actions).toEqual([{ tool: 'unknown', summary: '' }]);
    expect(model.prompts[0].answer).toBe('plain string answer');
    expect(model.started).toBeNull();
    expect(model.cwd).toBeNull();
  });

  it('counts the lines it skips: neither blank nor a JSON object; the first by its index in the lines given', () => {
    const prompt = line({ type: 'user', message: { content: 'a real prompt' } });
    const lines = [prompt, '', '  \t', '\r', 'null', prompt, '[]', '42', '"text"', 'true', '{not json', '{"cut', '\ufeff{}', '{}', ' {"type":"x"} '];
    const { model, skipped } = foldTranscriptLines(null, lines, 'f');
    // ('\ufeff{}' is read: a byte order mark is no part of a line, RFC 8259 §8.1 lets a parser ignore it.)
    expect(skipped).toEqual({ count: 7, first: 4 });
    expect(model).toEqual(applyTranscriptLines(null, lines, 'f'));
    expect(model.prompts.map((p) => p.text)).toEqual(['a real prompt', 'a real prompt']);
    expect(foldTranscriptLines(null, [prompt, '', '   ', '{}'], 'f').skipped).toBeNull();
    expect(foldTranscriptLines(null, [], 'f').skipped).toBeNull();
    expect(foldTranscriptLines(model, ['x'], 'f').skipped).toEqual({ count: 1, first: 0 });
  });

  it('skips nothing of a real transcript', () => {
    for (const name of [MAIN, PLAN, COMPACTION]) expect(foldTranscriptLines(null, fixtureLines(name), 'f').skipped, name).toBeNull();
  });

  it('never throws on arbitrary JSON lines (property)', () => {
    const entry = fc.record(
      {
        type: fc.constantFrom('user', 'assistant', 'system', 'progress', 'summary', 'x'),
        message: fc.anything(),
        isMeta: fc.boolean(),
        toolUseResult: fc.anything(),
        timestamp: fc.oneof(fc.string(), fc.date({ noInvalidDate: true }).map((d) => d.toISOString())),
        cwd: fc.anything(),
      },
      { requiredKeys: ['type'] },
    );
    fc.assert(
      fc.property(fc.array(fc.oneof(entry.map((e) => JSON.stringify(e)), fc.string())), (lines) => {
        const model = applyTranscriptLines(null, lines, 'f');
        expect(Array.isArray(model.prompts)).toBe(true);
      }),
    );
  });

  it('does not count the same tool_use block twice', () => {
    const use = line({ type: 'assistant', message: { id: 'm1', content: [{ type: 'tool_use', id: 't1', name: 'Read', input: { file_path: '/a' } }] } });
    const model = applyTranscriptLines(null, [line({ type: 'user', message: { content: 'go' } }), use, use], 'f');
    expect(model.prompts[0].actions).toHaveLength(1);
  });

  it('replaces the answer when a later message has text, extends it within the same message', () => {
    const text = (id: string, t: string) => line({ type: 'assistant', message: { id, content: [{ type: 'text', text: t }] } });
    const model = applyTranscriptLines(null, [line({ type: 'user', message: { content: 'go' } }), text('m1', 'first'), text('m2', 'second'), text('m2', 'third')], 'f');
    expect(model.prompts[0].answer).toBe('second\n\nthird');
  });

  it('takes the project from the last path component on either separator', () => {
    expect(projectName('/home/u/code/my-app/')).toBe('my-app');
    expect(projectName('C:\\Users\\u\\proj')).toBe('proj');
    expect(projectName(null)).toBe('unknown');
  });
});

describe('promptFromUserText', () => {
  it('keeps typed prompts, trimmed', () => {
    expect(promptFromUserText('  fix it  \n')).toBe('fix it');
  });

  it('turns slash command plumbing into the typed command', () => {
    expect(promptFromUserText('<command-name>/clear</command-name>\n<command-message>clear</command-message>\n<command-args></command-args>')).toBe('/clear');
    expect(promptFromUserText('<command-message>init is analyzing…</command-message>\n<command-name>init</command-name>')).toBe('/init');
  });

  it('drops command output, interruption markers and reminder-only messages', () => {
    expect(promptFromUserText('<local-command-stdout>done</local-command-stdout>')).toBeNull();
    expect(promptFromUserText('<local-command-stderr>oops</local-command-stderr>')).toBeNull();
    expect(promptFromUserText('<bash-stdout>x</bash-stdout>')).toBeNull();
    expect(promptFromUserText('[Request interrupted by user]')).toBeNull();
    expect(promptFromUserText('[Request interrupted by user for tool use]')).toBeNull();
    expect(promptFromUserText('<system-reminder>only a reminder</system-reminder>')).toBeNull();
  });

  it('records a fully private prompt without its text', () => {
    expect(promptFromUserText('<private>my salary is 100k</private>')).toBe('(private)');
  });

  it('keeps a prompt that merely starts with an unrelated tag', () => {
    expect(promptFromUserText('<div> is not centered, why?')).toBe('<div> is not centered, why?');
  });
});

describe("a failed tool's error line", () => {
  const failed = (content: unknown) => {
    const lines = [
      { type: 'user', message: { role: 'user', content: 'deploy it' } },
      { type: 'assistant', message: { id: 'm1', role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'Bash', input: { command: 'make deploy' } }] } },
      { type: 'user', message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', is_error: true, content }] } },
    ];
    return applyTranscriptLines(null, lines.map((l) => JSON.stringify(l)), 'x').prompts[0].actions[0];
  };

  it('prefers the line that says what went wrong, without colours or tags, redacted and cut short', () => {
    expect(failed('Exit code 2\n> deploy\n\u001b[31mError: connect ECONNREFUSED 10.0.0.1:5432\u001b[0m\nat x (y.js:1)').error).toBe('Error: connect ECONNREFUSED 10.0.0.1:5432');
    expect(failed('<tool_use_error>File does not exist.</tool_use_error>').error).toBe('File does not exist.');
    expect(failed([{ type: 'text', text: 'Exit code 1\ncurl: (22) https://bob:hunter2@example.com/x failed: 401' }]).error).toBe(
      'curl: (22) https://bob:[REDACTED]@example.com/x failed: 401',
    );
    expect(Array.from(failed('E'.repeat(5000)).error ?? '').length).toBeLessThanOrEqual(120);
    expect(failed('Exit code 1').error).toBeUndefined();
  });
});

describe('a tool use refused with a reason', () => {
  const REJECTED =
    "The user doesn't want to proceed with this tool use. The tool use was rejected (eg. if it was a file edit, the new_string was NOT written to the file). To tell you how to proceed, the user said:\n";
  const entry = (type: string, content: unknown, extra: Record<string, unknown> = {}) =>
    JSON.stringify({ type, sessionId: 's', cwd: '/home/me/app', message: { role: type, content }, ...extra });
  const session = (result: unknown) => [
    entry('user', 'remove the build folder'),
    entry('assistant', [{ type: 'tool_use', id: 't1', name: 'Bash', input: { command: 'rm -rf build' } }]),
    entry('user', [{ type: 'tool_result', tool_use_id: 't1', content: result, is_error: true }], { toolUseResult: 'User rejected tool use' }),
    entry('assistant', [{ type: 'tool_use', id: 't2', name: 'Bash', input: { command: 'rm -rf build/cache' } }]),
    entry('user', [{ type: 'tool_result', tool_use_id: 't2', content: '', is_error: false }]),
    entry('assistant', [{ type: 'text', text: 'Removed build/cache only.' }]),
  ];
  it('keeps what the user typed as the next prompt, with what was done after it', () => {
    const model = applyTranscriptLines(null, (session(REJECTED + 'no, only delete build/cache and keep the rest')), 'f');
    expect(model.prompts.map((p) => [p.n, p.text, p.actions.map((a) => `${a.summary} ${a.exitStatus}`), p.answer])).toEqual([
      [1, 'remove the build folder', ['rm -rf build refused'], ''],
      [2, 'no, only delete build/cache and keep the rest', ['rm -rf build/cache ok'], 'Removed build/cache only.'],
    ]);
  });

  it('reads the reason from text blocks too, and redacts it like any prompt', () => {
    const model = applyTranscriptLines(null, (session([{ type: 'text', text: REJECTED + 'use password=hunter2x9 instead' }])), 'f');
    expect(model.prompts.map((p) => p.text)).toEqual(['remove the build folder', 'use password=[REDACTED] instead']);
  });

  it('adds no prompt for a plain refusal or for the text Claude Code writes itself', () => {
    for (const result of [
      "The user doesn't want to proceed with this tool use. The tool use was rejected (eg. if it was a file edit, the new_string was NOT written to the file). STOP what you are doing and wait for the user to tell you how to proceed.",
      REJECTED + 'The user wants to clarify these questions.\n    This means they may have additional information, context or questions for you.',
      'Error: the user said: no',
    ]) {
      const model = applyTranscriptLines(null, (session(result)), 'f');
      expect(model.prompts.map((p) => p.text)).toEqual(['remove the build folder']);
    }
  });
});

describe('a refused tool use', () => {
  // Claude Code's own line for a refusal (2.x): the tool_result is an error whose text starts with "The user
  // doesn't want to proceed with this tool use.", and the line's toolUseResult says "User rejected tool use";
  // an interrupted turn follows with "[Request interrupted by user for tool use]".
  const REFUSED =
    "The user doesn't want to proceed with this tool use. The tool use was rejected (eg. if it was a file edit, the new_string was NOT written to the file). STOP what you are doing and wait for the user to tell you how to proceed.";
  const entry = (type: string, content: unknown, extra: Record<string, unknown> = {}) =>
    JSON.stringify({ type, sessionId: 's', cwd: '/home/me/app', message: { role: type, content }, ...extra });
  const lines = (toolUseResult: unknown, content: unknown = REFUSED) => [
    entry('user', 'clean up and show me the status'),
    entry('assistant', [{ type: 'tool_use', id: 't1', name: 'Bash', input: { command: 'git status' } }]),
    entry('user', [{ type: 'tool_result', tool_use_id: 't1', content: 'clean', is_error: false }]),
    entry('assistant', [{ type: 'tool_use', id: 't2', name: 'Bash', input: { command: 'cat missing.txt' } }]),
    entry('user', [{ type: 'tool_result', tool_use_id: 't2', content: 'cat: missing.txt: No such file', is_error: true }]),
    entry('assistant', [{ type: 'tool_use', id: 't3', name: 'Bash', input: { command: 'rm -rf build' } }]),
    entry('user', [{ type: 'tool_result', tool_use_id: 't3', content, is_error: true }], toolUseResult === undefined ? {} : { toolUseResult }),
    entry('user', [{ type: 'text', text: '[Request interrupted by user for tool use]' }]),
    entry('assistant', [{ type: 'tool_use', id: 't4', name: 'Edit', input: { file_path: '/home/me/app/src/a.ts', old_string: 'a', new_string: 'b' } }]),
    entry('user', [{ type: 'tool_result', tool_use_id: 't4', content: REFUSED, is_error: true }], { toolUseResult: 'User rejected tool use' }),
  ];

  it('is left out of commands and files (it never ran) and marked refused in the actions; a failed command stays', () => {
    for (const [toolUseResult, content] of [
      ['User rejected tool use', REFUSED],
      [undefined, REFUSED],
      ['User rejected tool use', [{ type: 'text', text: REFUSED }]],
      ['User rejected tool use', "The user doesn't want to proceed with this tool use."],
    ] as const) {
      const model = applyTranscriptLines(null, lines(toolUseResult, content), 'f');
      expect(model.commands).toEqual(['git status', 'cat missing.txt']);
      expect(model.filesEdited).toEqual([]);
      expect(model.prompts[0].actions.map((a) => `${a.summary} ${a.exitStatus}`)).toEqual([
        'git status ok',
        'cat missing.txt error',
        'rm -rf build refused',
        'src/a.ts refused',
      ]);
    }
  });

  it('is a refusal only when the result is an error saying so', () => {
    const model = applyTranscriptLines(null, lines('Error: exit 1', 'rm: cannot remove build: Permission denied'), 'f');
    expect(model.commands).toContain('rm -rf build');
    expect(model.prompts[0].actions[2].exitStatus).toBe('error');
  });
});

describe("a subagent's files (agent_progress lines)", () => {
  // The shape Claude Code 2.1.38 writes (claude-code-2.1.38-plan-subagent-session.jsonl, lines 36-56):
  // the Task call, then one progress line per message of the agent, parentToolUseID naming the call.
  const base = { sessionId: 's', cwd: '/home/me/app' };
  const line = (o: Record<string, unknown>) => JSON.stringify({ ...base, ...o });
  const progress = (type: 'assistant' | 'user', content: unknown[]) =>
    line({
      type: 'progress',
      parentToolUseID: 'toolu_task',
      toolUseID: 'agent_msg_1',
      data: { type: 'agent_progress', agentId: 'a1', prompt: 'look around', normalizedMessages: [], message: { type, message: { role: type, content } } },
    });
  const lines = [
    line({ type: 'user', message: { role: 'user', content: 'plan the change' } }),
    line({ type: 'assistant', message: { id: 'm1', role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_task', name: 'Task', input: { subagent_type: 'Explore', description: 'Find the parser' } }] } }),
    progress('assistant', [{ type: 'tool_use', id: 'a_r1', name: 'Read', input: { file_path: '/home/me/app/src/parse.ts' } }]),
    progress('user', [{ type: 'tool_result', tool_use_id: 'a_r1', content: '1→export function parse() {}' }]),
    progress('assistant', [{ type: 'tool_use', id: 'a_r2', name: 'Read', input: { file_path: '/home/me/app/src/missing.ts' } }]),
    progress('user', [{ type: 'tool_result', tool_use_id: 'a_r2', content: 'File does not exist.', is_error: true }]),
    progress('assistant', [{ type: 'tool_use', id: 'a_b1', name: 'Bash', input: { command: 'ls src' } }]),
    progress('user', [{ type: 'tool_result', tool_use_id: 'a_b1', content: 'parse.ts' }]),
    progress('assistant', [{ type: 'tool_use', id: 'a_e1', name: 'Edit', input: { file_path: '/home/me/app/src/parse.ts', old_string: 'a', new_string: 'b' } }]),
    progress('user', [{ type: 'tool_result', tool_use_id: 'a_e1', content: 'ok' }]),
    line({ type: 'user', message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_task', content: [{ type: 'text', text: 'The parser is in src/parse.ts' }] }] } }),
    line({ type: 'assistant', message: { id: 'm2', role: 'assistant', content: [{ type: 'text', text: 'Found it.' }] } }),
  ];

  it('lists what the agent read and edited in files_read / files_edited, not its commands or its failed reads', () => {
    const model = applyTranscriptLines(null, lines, 'f');
    expect(model.filesRead).toEqual(['src/parse.ts']);
    expect(model.filesEdited).toEqual(['src/parse.ts']);
    expect(model.commands).toEqual([]);
    expect(model.prompts[0].actions.map((a) => a.summary)).toEqual(['Explore: Find the parser']);
  });

  it('gives the same lists when the lines arrive in several ingests (a result after its call)', () => {
    let model = null;
    for (const l of lines) model = applyTranscriptLines(model, [l], 'f');
    expect(model?.filesRead).toEqual(['src/parse.ts']);
    expect(model?.filesEdited).toEqual(['src/parse.ts']);
  });

  it('leaves a progress line of another kind, or without a message, alone', () => {
    const other = line({ type: 'progress', parentToolUseID: 'toolu_task', data: { type: 'hook_progress', message: { type: 'assistant', message: { content: [{ type: 'tool_use', id: 'x', name: 'Read', input: { file_path: '/etc/hosts' } }] } } } });
    const model = applyTranscriptLines(null, [...lines.slice(0, 2), other, line({ type: 'progress', data: { type: 'agent_progress' } })], 'f');
    expect(model.filesRead).toEqual([]);
  });
});
