// The skeleton of a whole note (see skeleton.ts), with the content of root-level fenced code blocks
// reduced further.
//
// Code differs from note to note far more than prose does, so code lines would make most segments
// unique. The content of a fence opened at column 0 is code whatever it holds, provided the fence
// line really opens a root-level fence, which only the parse can tell (it may sit inside an HTML
// block). So content lines become 'x' (blank lines, and lines with '<' or '>' that could end an HTML
// block, stay as they are), and each fence is confirmed by the parse of the segment that holds its
// opening line; an unconfirmed fence gets its plain skeleton lines back.
import { isBlankLine } from './lines.js';
import { skeletonLine, startsDefinition, type DepthGuard } from './skeleton.js';

const ROOT_FENCE_OPEN = /^(`{3,}|~{3,})(.*)$/;
const FENCE_CLOSE = /^ {0,3}(`{3,}|~{3,})[ \t]*$/;

const UNCHECKED = 0;
const CONFIRMED = 1;
const REJECTED = 2;

export class NoteSkeleton {
  /** Skeleton lines without fence reduction (only lines from bodyStart on are set). */
  readonly plain: string[];
  private readonly reduced: string[];
  /** Per line: index of the fence whose content it is, or -1. */
  private readonly fenceOf: Int32Array;
  /** Per fence: its opening line and whether the parse confirmed it. */
  private readonly openers: number[] = [];
  private readonly status: number[] = [];
  /** Lines outside root fences whose nesting the skeleton cut down (skeleton.ts, MAX_NESTING / MAX_INDENT). */
  cappedLines = 0;

  constructor(lines: string[], bodyStart: number) {
    this.plain = new Array<string>(lines.length);
    this.reduced = this.plain;
    this.fenceOf = new Int32Array(lines.length).fill(-1);
    let inDefinition = false;
    let fence: { char: string; length: number; index: number } | null = null;
    let reduced: string[] | null = null;
    const depth: DepthGuard = { cappedLines: 0 };
    for (let i = bodyStart; i < lines.length; i++) {
      const line = lines[i];
      depth.cappedLines = 0;
      const plain = skeletonLine(line, inDefinition, depth);
      this.plain[i] = plain;
      inDefinition = startsDefinition(line) || (inDefinition && !isBlankLine(line));
      if (fence) {
        const close = FENCE_CLOSE.exec(line);
        if (close && close[1][0] === fence.char && close[1].length >= fence.length) {
          fence = null;
          continue;
        }
        this.fenceOf[i] = fence.index;
        reduced ??= this.plain.slice();
        reduced[i] = isBlankLine(line) || line.indexOf('<') !== -1 || line.indexOf('>') !== -1 ? plain : 'x';
        continue;
      }
      this.cappedLines += depth.cappedLines; // (a fence's content is code: its indentation nests nothing)
      const c = line.charCodeAt(0);
      if (c !== 0x60 && c !== 0x7e) continue;
      const open = ROOT_FENCE_OPEN.exec(line);
      if (!open || (c === 0x60 && open[2].indexOf('`') !== -1)) continue;
      fence = { char: open[1][0], length: open[1].length, index: this.openers.length };
      this.openers.push(i);
      this.status.push(UNCHECKED);
    }
    if (reduced) this.reduced = reduced;
  }

  /** The skeleton line to parse for line `i`. */
  line(i: number): string {
    const f = this.fenceOf[i];
    return f !== -1 && this.status[f] !== REJECTED ? this.reduced[i] : this.plain[i];
  }

  /** Fences opened in lines [start, end) that the parse has not judged yet. */
  uncheckedFences(start: number, end: number): number[] {
    const out: number[] = [];
    let lo = 0;
    let hi = this.openers.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.openers[mid] < start) lo = mid + 1;
      else hi = mid;
    }
    for (let f = lo; f < this.openers.length && this.openers[f] < end; f++) {
      if (this.status[f] === UNCHECKED) out.push(f);
    }
    return out;
  }

  /** Forgets verdicts (they were made on a parse that a rejected fence made wrong). */
  uncheck(fences: number[]): void {
    for (const f of fences) this.status[f] = UNCHECKED;
  }

  isConfirmed(fence: number): boolean {
    return this.status[fence] === CONFIRMED;
  }

  openerOf(fence: number): number {
    return this.openers[fence];
  }

  /** Records the parse's verdict; false when the fence's lines must be parsed again in plain form. */
  judge(fence: number, opensCode: boolean): boolean {
    this.status[fence] = opensCode ? CONFIRMED : REJECTED;
    return opensCode;
  }
}
