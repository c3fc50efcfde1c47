import { describe, expect, it, vi } from 'vitest';
import { VirtualClock } from '../../src/clock/VirtualClock';

const START = 1_700_000_000_000;

describe('VirtualClock, manual mode', () => {
  it('stands still until advanced; set() moves to a time; nowSeconds floors', () => {
    const clock = new VirtualClock({ mode: 'manual', startMs: START + 999 });
    expect(clock.mode).toBe('manual');
    expect(clock.now()).toBe(START + 999);
    expect(clock.nowSeconds()).toBe(1_700_000_000);
    clock.advance(1);
    expect(clock.now()).toBe(START + 1_000);
    expect(clock.nowSeconds()).toBe(1_700_000_001);
    clock.set(START + 60_000);
    expect(clock.now()).toBe(START + 60_000);
  });

  it('refuses to move backwards; set() to the past leaves time where it is', () => {
    const clock = new VirtualClock({ mode: 'manual', startMs: START });
    expect(() => clock.advance(-1)).toThrow(RangeError);
    clock.set(START - 5_000);
    expect(clock.now()).toBe(START);
  });

  it('fires timers only once time reaches them, in due order (ties in scheduling order)', () => {
    const clock = new VirtualClock({ mode: 'manual', startMs: START });
    const fired: string[] = [];
    clock.setTimeout(() => fired.push(`c@${clock.now() - START}`), 300);
    clock.setTimeout(() => fired.push(`a@${clock.now() - START}`), 100);
    clock.setTimeout(() => fired.push(`b1@${clock.now() - START}`), 200);
    clock.setTimeout(() => fired.push(`b2@${clock.now() - START}`), 200);
    clock.setTimeout(() => fired.push('d'), 1_000);

    clock.advance(99);
    expect(fired).toEqual([]);
    clock.advance(1);
    expect(fired).toEqual(['a@100']);
    // one big jump fires everything due, still in due order (callbacks see the new time)
    clock.advance(400);
    expect(fired).toEqual(['a@100', 'b1@500', 'b2@500', 'c@500']);
    clock.set(START + 1_000);
    expect(fired).toEqual(['a@100', 'b1@500', 'b2@500', 'c@500', 'd']);
  });

  it('fires each timer once', () => {
    const clock = new VirtualClock({ mode: 'manual', startMs: START });
    let count = 0;
    clock.setTimeout(() => count++, 10);
    clock.advance(10);
    clock.advance(10);
    clock.advance(1_000);
    expect(count).toBe(1);
  });

  it('a zero or negative delay is due at once but still waits for advance()', () => {
    const clock = new VirtualClock({ mode: 'manual', startMs: START });
    let fired = 0;
    clock.setTimeout(() => fired++, 0);
    clock.setTimeout(() => fired++, -50);
    expect(fired).toBe(0);
    clock.advance(0);
    expect(fired).toBe(2);
  });

  it('cancel() stops a timer from firing; cancelling twice or after firing is harmless', () => {
    const clock = new VirtualClock({ mode: 'manual', startMs: START });
    const fired: string[] = [];
    const a = clock.setTimeout(() => fired.push('a'), 100);
    clock.setTimeout(() => fired.push('b'), 100);
    a.cancel();
    a.cancel();
    clock.advance(100);
    expect(fired).toEqual(['b']);
    a.cancel();
  });

  it('a timer cancelled by an earlier callback in the same advance does not fire', () => {
    const clock = new VirtualClock({ mode: 'manual', startMs: START });
    const fired: string[] = [];
    const later = clock.setTimeout(() => fired.push('later'), 200);
    clock.setTimeout(() => {
      fired.push('first');
      later.cancel();
    }, 100);
    clock.advance(300);
    expect(fired).toEqual(['first']);
  });

  it('cancelAll() cancels every pending timer', () => {
    const clock = new VirtualClock({ mode: 'manual', startMs: START });
    let fired = 0;
    for (let i = 1; i <= 5; i++) clock.setTimeout(() => fired++, i * 10);
    clock.cancelAll();
    clock.advance(1_000);
    expect(fired).toBe(0);
  });

  it('sleep() resolves when virtual time passes, not before', async () => {
    const clock = new VirtualClock({ mode: 'manual', startMs: START });
    let done = false;
    const sleeping = clock.sleep(5_000).then(() => (done = true));
    await Promise.resolve();
    clock.advance(4_999);
    await Promise.resolve();
    expect(done).toBe(false);
    clock.advance(1);
    await sleeping;
    expect(done).toBe(true);
  });
});

describe('VirtualClock, real mode', () => {
  it('advance() shifts now() forward and fires timers that became due, synchronously', () => {
    const clock = new VirtualClock({ mode: 'real' });
    expect(clock.mode).toBe('real');
    const before = clock.now();
    let fired = false;
    const timer = clock.setTimeout(() => (fired = true), 3_600_000);
    clock.advance(3_600_000);
    expect(fired).toBe(true);
    expect(clock.now()).toBeGreaterThanOrEqual(before + 3_600_000);
    timer.cancel();
  });

  it('starts at startMs when given', () => {
    const clock = new VirtualClock({ mode: 'real', startMs: 1_000 });
    expect(clock.now()).toBeGreaterThanOrEqual(1_000);
    expect(clock.now()).toBeLessThan(1_000 + 60_000);
  });

  it('a timer whose real handle fires before it is due by Date.now() (the event loop counts from its cached time) is armed again, and fires', async () => {
    const clock = new VirtualClock({ mode: 'real' });
    // the wall clock seems to stand still: the timer's handle fires while the timer is not yet due
    const standing = vi.spyOn(Date, 'now').mockReturnValue(Date.now());
    const fired = new Promise<boolean>((resolve) => clock.setTimeout(() => resolve(true), 10));
    await new Promise((resolve) => setTimeout(resolve, 40));
    standing.mockRestore();
    const notFired = new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 1_000));
    expect(await Promise.race([fired, notFired])).toBe(true);
  });

  it('defaults to real mode', () => {
    expect(new VirtualClock().mode).toBe('real');
  });
});

describe('VirtualClock.restoreTo (a world revert)', () => {
  it('moves time back (or forward) without firing anything; pending timers keep the wait they had left', () => {
    const clock = new VirtualClock({ mode: 'manual', startMs: 1_000_000 });
    const fired: string[] = [];
    clock.advance(3_600_000);
    clock.setTimeout(() => fired.push('poll'), 500);
    clock.restoreTo(1_000_000);
    expect(clock.now()).toBe(1_000_000);
    expect(fired).toEqual([]);
    clock.advance(499);
    expect(fired).toEqual([]);
    clock.advance(1);
    expect(fired).toEqual(['poll']);
    clock.restoreTo(2_000_000);
    expect(clock.now()).toBe(2_000_000);
  });

  it('in real mode, a timer armed before still fires after its remaining real delay', async () => {
    const clock = new VirtualClock({ mode: 'real' });
    const before = clock.now();
    clock.advance(3_600_000);
    const fired = new Promise<number>((resolve) => clock.setTimeout(() => resolve(clock.now()), 20));
    clock.restoreTo(before);
    const at = await fired;
    expect(at - before).toBeGreaterThanOrEqual(20);
    expect(at - before).toBeLessThan(3_600_000);
  });
});
