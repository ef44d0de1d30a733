// Which files `tsm ingest-session` reads: the .jsonl files named, and those found below named folders.
import { readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';

export interface TranscriptList {
  files: string[];
  /** Those of `files` named as arguments (the others were found in folders). */
  named: Set<string>;
  /** Arguments that could not be used, with why. */
  problems: { arg: string; message: string }[];
}

/**
 * Sub-agent transcripts (`agent-*.jsonl`, `subagents/` folders) are skipped in folders: they belong to
 * their parent session, whose own transcript already records what the sub-agent did. One of another name
 * (a copy, a fixture: its lines say so) is skipped by the command when ingest refuses it. A file named
 * explicitly is always listed (ingest refuses a sub-agent's, naming its session's transcript: ingest.ts).
 */
export function findTranscripts(args: string[], cwd: string): TranscriptList {
  const files: string[] = [];
  const named = new Set<string>();
  const problems: TranscriptList['problems'] = [];
  for (const arg of args) {
    const path = resolve(cwd, arg);
    let isDir: boolean;
    try {
      const st = statSync(path);
      if (!st.isDirectory() && !st.isFile()) throw new Error('not a file or folder');
      isDir = st.isDirectory();
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      problems.push({ arg, message: code === 'ENOENT' ? 'no such file or folder' : (err as Error).message });
      continue;
    }
    if (!isDir) {
      files.push(path);
      named.add(path);
      continue;
    }
    const found = walk(path);
    if (found.length === 0) problems.push({ arg, message: 'no .jsonl transcripts in this folder' });
    files.push(...found);
  }
  return { files: [...new Set(files)], named, problems };
}

function walk(dir: string): string[] {
  const out: string[] = [];
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return out; // unreadable folder: nothing from it
  }
  for (const e of entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
    const path = join(dir, e.name);
    // Symlinked folders are not followed: ~/.claude can hold links back to itself.
    if (e.isDirectory() && e.name !== 'subagents' && !e.name.startsWith('.')) out.push(...walk(path));
    else if (e.isFile() && /\.jsonl$/i.test(e.name) && !/^agent-/i.test(e.name)) out.push(path);
  }
  return out;
}
