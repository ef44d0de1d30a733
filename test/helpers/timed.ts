// A synchronous call's result and its wall time: the linear-time tests measure what a test timeout cannot
// stop (a synchronous call runs to its end), and their bounds tell linear from quadratic.
export function timed<T>(f: () => T): { value: T; ms: number } {
  const start = performance.now();
  const value = f();
  return { value, ms: performance.now() - start };
}
