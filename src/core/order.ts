// Sort comparisons of numbers, for the search path's sorts.
//
// Every search and prompt hook is a fresh process, so its sorts run in code V8 has not optimised yet,
// where `b.score - a.score` allocates a heap number for every comparison: ~0.2 MB of a prompt hook's
// ~6.6 MB, which the garbage collector then scavenges. A comparison allocates nothing. The order is the
// same as the subtraction's (NaN, which no score is, compares equal in both).

/** −1, 0 or 1 as x is above, equal to or below y: `sort((a, b) => descending(a.score, b.score))`. */
export function descending(x: number, y: number): number {
  return x > y ? -1 : x < y ? 1 : 0;
}

/** Path, then section order: how results with equal scores are ordered, never by row id (ids differ between builds). */
export function byPlace(a: { path: string; ord: number }, b: { path: string; ord: number }): number {
  return a.path < b.path ? -1 : a.path > b.path ? 1 : a.ord - b.ord;
}
