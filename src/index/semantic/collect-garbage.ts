// A full garbage collection at one point of a training, where most of the heap has just become garbage.
//
// Reading a vault for a training leaves its section texts in the old generation (~100 MB of garbage on the
// handbook's 58,000 sections), and V8 collects them whenever its heuristics say: sometimes before the
// co-occurrence matrix is built, sometimes only after. That timing decided a full build's peak RSS: 370–403
// MB over three handbook builds (the bound is 400), against 345–361 MB with a collection right after the
// reading, in the same time (11.7–12.0 s against 12.1–12.3 s). Node has no call for it without
// `--expose-gc`; the flag is set for this process and `gc` read from a fresh context (the main context
// is untouched). It never runs on the search or hook path. Where that is refused, nothing happens.

let collect: (() => void) | null | undefined;

export function collectGarbage(): void {
  if (collect === undefined) {
    try {
      (process.getBuiltinModule('node:v8') as typeof import('node:v8')).setFlagsFromString('--expose-gc');
      const gc = (process.getBuiltinModule('node:vm') as typeof import('node:vm')).runInNewContext('gc') as unknown;
      collect = typeof gc === 'function' ? (gc as () => void) : null;
    } catch {
      collect = null;
    }
  }
  collect?.();
}
