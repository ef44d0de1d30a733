// Hooks fail open: a problem never reaches Claude Code's screen, it goes to one line in
// <vault>/.tsm/hook.log (created on demand), or to stderr when there is no log to write to.
import { appendFileSync, renameSync, statSync } from 'node:fs';
import { localTime } from '../core/days.js';
import { makeVaultFolder } from '../vault/folders.js';
import { join } from 'node:path';
import { oneLineEscape } from '../format/escape.js';
import { TSM_DIR } from '../vault/config.js';
import { fileKind } from '../vault/file-kind.js';

export const HOOK_LOG = 'hook.log';
/** Past this size the log is moved to hook.log.1 (one old generation kept), so it never grows unbounded. */
const MAX_LOG_BYTES = 512 * 1024;

export function hookLogPath(vault: string): string {
  return join(vault, TSM_DIR, HOOK_LOG);
}

/**
 * One log line: time (local, with its offset: core/days.ts localTime), event, session, message. Everything but the time may come from a payload or a
 * file name, so each part goes through oneLineEscape: no value can start a new line or forge one.
 * Line breaks inside a message (a multi-line error) become spaces first; anything else stays visible.
 */
export function formatLogLine(event: string | null, sessionId: string | null, message: string, now = new Date()): string {
  const oneLine = oneLineEscape(headOf(message.replace(/\s*[\r\n]+\s*/g, ' ').trim(), MAX_MESSAGE_CHARS));
  const session = sessionId ? ` session=${oneLineEscape([...sessionId].slice(0, 8).join(''))}` : '';
  return `${localTime(now)} ${oneLineEscape(headOf(event ?? 'hook', MAX_EVENT_CHARS))}${session}: ${oneLine}\n`;
}

/**
 * Each part of a line is bounded: a payload's 3 MB `hook_event_name` made one 3 MB line, which moved the
 * user's log to hook.log.1 (dropping the generation before) and which tsm doctor printed whole. Claude
 * Code's event names are under 20 characters; a message names a path and an error.
 */
const MAX_EVENT_CHARS = 64;
const MAX_MESSAGE_CHARS = 2000;
/** Longer than any line formatLogLine writes (time, session and the cut parts' "… (N characters)" included). */
const MAX_LINE_CHARS = MAX_EVENT_CHARS + MAX_MESSAGE_CHARS + 200;

/**
 * A line of the log as `tsm doctor` quotes it: whole when this tsm wrote it, cut as formatLogLine cuts a
 * message when an older tsm (before the bound) or anything else wrote a longer one. Such a 3 MB line stays in
 * the log for its week, and doctor printed it whole, in the text output and the JSON alike.
 */
export function shownLogLine(line: string): string {
  return headOf(line, MAX_LINE_CHARS);
}

function headOf(s: string, max: number): string {
  if (s.length <= max) return s;
  const cut = [...s.slice(0, max)];
  // A code point split at the cut (a lone high surrogate) is dropped.
  const last = cut[cut.length - 1].charCodeAt(0);
  if (last >= 0xd800 && last <= 0xdbff) cut.pop();
  return `${cut.join('')}… (${s.length} characters)`;
}

/**
 * Appends `line` to the vault's hook log; returns false (after writing it to `stderr`) when the log
 * cannot be written or there is no vault.
 */
export function writeHookLog(vault: string | null, line: string, stderr: (s: string) => void): boolean {
  if (vault !== null) {
    const path = hookLogPath(vault);
    try {
      // Appending to a FIFO would wait for a reader forever, and a link could point anywhere: only a
      // plain file (or none yet) is written to.
      const kind = fileKind(path, { lstat: true });
      if (kind !== 'file' && kind !== 'absent') throw new Error('not a plain file');
      makeVaultFolder(vault, join(vault, TSM_DIR));
      rotateIfLarge(path);
      appendFileSync(path, line);
      return true;
    } catch {
      // fall through to stderr
    }
  }
  stderr(`tsm hook: ${line}`);
  return false;
}

function rotateIfLarge(path: string): void {
  let size = 0;
  try {
    size = statSync(path).size;
  } catch {
    return;
  }
  if (size > MAX_LOG_BYTES) renameSync(path, `${path}.1`);
}
