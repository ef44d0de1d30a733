import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { actionLine, leadingCodeSpan, parseActionLine } from '../../src/sessions/action-line.js';

describe('parseActionLine', () => {
  it('reads the lines tsm ingest-session writes', () => {
    expect(parseActionLine('- Read `src/a.c`')).toEqual({ tool: 'Read', subject: 'src/a.c', text: 'Read `src/a.c`' });
    expect(parseActionLine('- Bash `npm test` → error')).toMatchObject({ tool: 'Bash', subject: 'npm test', status: 'error' });
    expect(parseActionLine('- Bash `make` → ok')).toMatchObject({ tool: 'Bash', subject: 'make', status: 'ok' });
    expect(parseActionLine('- Bash `rm -rf build` → refused')).toMatchObject({ tool: 'Bash', subject: 'rm -rf build', status: 'refused' });
    expect(parseActionLine('- Edit `src/a.ts` → refused')).toMatchObject({ tool: 'Edit', subject: 'src/a.ts', status: 'refused' });
    expect(parseActionLine('- Grep `foo|bar` in `src`')).toMatchObject({ tool: 'Grep', subject: 'foo|bar', scope: 'src' });
    expect(parseActionLine('- Glob in `src`')).toMatchObject({ tool: 'Glob', subject: '', scope: 'src' });
    expect(parseActionLine('- TodoWrite')).toEqual({ tool: 'TodoWrite', subject: '', text: 'TodoWrite' });
    expect(parseActionLine('- `mcp tool/x` `arg`')).toMatchObject({ tool: 'mcp tool/x', subject: 'arg' });
    expect(parseActionLine('- Bash `` echo `x` `` → ok')).toMatchObject({ tool: 'Bash', subject: 'echo `x`', status: 'ok' });
    expect(parseActionLine('- Bash `cat a.txt` → error: `cat: a.txt: No such file`')).toEqual({
      tool: 'Bash',
      subject: 'cat a.txt',
      status: 'error',
      error: 'cat: a.txt: No such file',
      text: 'Bash `cat a.txt` → error: `cat: a.txt: No such file`',
    });
  });

  it("writes a failed action's error after its status, and reads it back", () => {
    const line = actionLine({ tool: 'Read', summary: 'a.c', path: 'a.c', exitStatus: 'error', error: 'File does not exist.' });
    expect(line).toBe('- Read `a.c` → error: `File does not exist.`');
    expect(parseActionLine(line)).toMatchObject({ tool: 'Read', subject: 'a.c', status: 'error', error: 'File does not exist.' });
    const tricky = actionLine({ tool: 'Bash', summary: 'x', command: 'x', exitStatus: 'error', error: 'bad `tick` → ok' });
    expect(parseActionLine(tricky)).toMatchObject({ tool: 'Bash', subject: 'x', status: 'error', error: 'bad `tick` → ok' });
  });

  it('reads hand-written lines', () => {
    expect(parseActionLine('- Read src/receiver/display.c')).toMatchObject({ tool: 'Read', subject: 'src/receiver/display.c' });
    expect(parseActionLine('* Bash `pio test -e native` (exit 1)')).toMatchObject({ tool: 'Bash', subject: 'pio test -e native', status: 'error' });
    expect(parseActionLine('- Bash `pio run` (exit 0)')).toMatchObject({ status: 'ok' });
    expect(parseActionLine('- Edit src/x y.c')).toMatchObject({ tool: 'Edit', subject: 'src/x y.c' });
  });

  it('ignores lines that are not list items', () => {
    expect(parseActionLine('')).toBeNull();
    expect(parseActionLine('Read src/a.c')).toBeNull();
    expect(parseActionLine('-')).toBeNull();
    expect(parseActionLine('    - deeply indented code')).toBeNull();
  });

  it('reads back what the session renderer writes, for any path or command', () => {
    const text = fc.string({ minLength: 1, maxLength: 40 }).filter((s) => s.trim() === s && !/[\n\r]/.test(s) && s !== '');
    fc.assert(
      fc.property(text, fc.constantFrom('Read', 'Edit', 'Write'), (path, tool) => {
        const line = actionLine({ tool, summary: path, path });
        expect(parseActionLine(line)).toMatchObject({ tool, subject: path });
      }),
    );
    fc.assert(
      fc.property(text, fc.constantFrom<'ok' | 'error' | 'refused'>('ok', 'error', 'refused'), (command, status) => {
        const line = actionLine({ tool: 'Bash', summary: command, command, exitStatus: status });
        expect(parseActionLine(line)).toMatchObject({ tool: 'Bash', subject: command, status });
      }),
    );
    fc.assert(
      fc.property(text, text, (command, error) => {
        const line = actionLine({ tool: 'Bash', summary: command, command, exitStatus: 'error', error });
        expect(parseActionLine(line)).toMatchObject({ tool: 'Bash', subject: command, status: 'error', error });
      }),
    );
  });
});

describe('leadingCodeSpan', () => {
  it('follows CommonMark: matching runs, one padding space stripped', () => {
    expect(leadingCodeSpan('`a` rest')).toEqual({ content: 'a', rest: ' rest' });
    expect(leadingCodeSpan('`` a`b `` x')).toEqual({ content: 'a`b', rest: ' x' });
    expect(leadingCodeSpan('`a``b` x')).toEqual({ content: 'a``b', rest: ' x' });
    expect(leadingCodeSpan('`  `')).toEqual({ content: '  ', rest: '' });
    expect(leadingCodeSpan('`open')).toBeNull();
    expect(leadingCodeSpan('plain')).toBeNull();
  });
});
