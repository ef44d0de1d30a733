import { describe, expect, it, vi } from 'vitest';
import { ChangeQueue, Debouncer } from '../../src/watch/change-queue.js';

describe('ChangeQueue', () => {
  it('collects attachments apart from notes, and lets a rescan cover them too', () => {
    const q = new ChangeQueue();
    q.addAttachment('pics/b.png');
    q.addAttachment('a.pdf');
    q.addPath('n.md');
    expect(q.size).toBe(3);
    const batch = q.take()!;
    expect(batch).toEqual({ paths: ['n.md'], rescanReasons: [], attachments: ['a.pdf', 'pics/b.png'] });
    q.putBack(batch);
    expect(q.take()).toEqual(batch);
    q.addAttachment('a.pdf');
    q.requestRescan('folder added: x');
    q.addAttachment('c.png');
    expect(q.take()).toEqual({ paths: [], rescanReasons: ['folder added: x'], attachments: [] });
  });
  it('collects each path once, sorted, and empties on take', () => {
    const q = new ChangeQueue();
    expect(q.take()).toBeNull();
    q.addPath('b.md');
    q.addPath('a.md');
    q.addPath('b.md');
    expect(q.size).toBe(2);
    expect(q.take()).toEqual({ paths: ['a.md', 'b.md'], rescanReasons: [], attachments: [] });
    expect(q.size).toBe(0);
    expect(q.take()).toBeNull();
  });
  it('lets a rescan cover every path, before and after it', () => {
    const q = new ChangeQueue();
    q.addPath('a.md');
    q.requestRescan('folder added: x');
    q.addPath('b.md');
    expect(q.take()).toEqual({ paths: [], rescanReasons: ['folder added: x'], attachments: [] });
  });
  it('puts a failed batch back without losing what came since', () => {
    const q = new ChangeQueue();
    q.addPath('a.md');
    const batch = q.take()!;
    q.addPath('c.md');
    q.putBack(batch);
    expect(q.take()).toEqual({ paths: ['a.md', 'c.md'], rescanReasons: [], attachments: [] });
    q.requestRescan('r');
    const rescan = q.take()!;
    q.addPath('d.md');
    q.putBack(rescan);
    expect(q.take()).toEqual({ paths: [], rescanReasons: ['r'], attachments: [] });
  });
});

const tick = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('Debouncer', () => {
  it('fires once after the events go quiet', async () => {
    let fired = 0;
    const d = new Debouncer(40, 10_000, () => fired++);
    d.poke();
    await tick(15);
    d.poke();
    await tick(15);
    d.poke();
    expect(d.pending).toBe(true);
    expect(fired).toBe(0);
    await tick(120);
    expect(fired).toBe(1);
    expect(d.pending).toBe(false);
  });
  it('fires by the maximum wait when events never go quiet', async () => {
    let fired = 0;
    const d = new Debouncer(50, 120, () => fired++);
    const started = Date.now();
    while (fired === 0 && Date.now() - started < 2000) {
      d.poke();
      await tick(10);
    }
    d.cancel();
    expect(fired).toBe(1);
    expect(Date.now() - started).toBeLessThan(1000);
  });
  it('holds a retry back even while events keep coming', async () => {
    let fired = 0;
    const d = new Debouncer(10, 30, () => fired++);
    d.pokeAfter(200);
    const started = Date.now();
    while (Date.now() - started < 120) {
      d.poke();
      await tick(10);
    }
    expect(fired).toBe(0);
    await tick(250);
    expect(fired).toBe(1);
  });
  it('a wall clock set back after a retry does not hold later events back', async () => {
    let fired = 0;
    const d = new Debouncer(10, 30, () => fired++);
    d.pokeAfter(20);
    await tick(60);
    expect(fired).toBe(1);
    // The clock steps back an hour (an NTP correction, a resumed VM): the retry's hold was measured by the
    // wall clock, so every later event waited that hour before its batch.
    vi.setSystemTime(Date.now() - 3_600_000);
    try {
      d.poke();
      await tick(100);
      expect(fired).toBe(2);
    } finally {
      d.cancel();
      vi.useRealTimers();
    }
  });
  it('cancel stops a scheduled call', async () => {
    let fired = 0;
    const d = new Debouncer(10, 20, () => fired++);
    d.poke();
    d.cancel();
    await tick(60);
    expect(fired).toBe(0);
  });
});
