import { describe, expect, it } from 'vitest';
import { canChangeDirectly, canReach, firstChangeOffTable, REQUEST_STATUSES, STATUS_TRANSITIONS } from '../../conformance/statusTransitions';

describe('the suite’s §3 transition table', () => {
  it('names only §3 statuses, and nothing leaves refund', () => {
    for (const [from, to] of Object.entries(STATUS_TRANSITIONS)) {
      expect(REQUEST_STATUSES).toContain(from);
      for (const status of to) expect(REQUEST_STATUSES).toContain(status);
    }
    expect(STATUS_TRANSITIONS.refund).toEqual([]);
  });

  it('lets a poller see a bridge skip statuses forward, never move back', () => {
    expect(canReach('waiting', 'success')).toBe(true);
    expect(canChangeDirectly('waiting', 'success')).toBe(false);
    expect(canReach('success', 'pending')).toBe(false);
    expect(canReach('submitted', 'pending')).toBe(false);
    expect(canReach('refund', 'success')).toBe(false);
    expect(canReach('success', 'refund')).toBe(true); // a reorged deposit: success → failure → refund
  });

  it('finds the first change off the table, polled or delivered', () => {
    expect(firstChangeOffTable(['waiting', 'waiting', 'success', 'success'], false)).toBeUndefined();
    expect(firstChangeOffTable(['waiting', 'pending', 'success', 'pending'], false)).toEqual({ index: 3, from: 'success', to: 'pending' });
    expect(firstChangeOffTable(['waiting', 'pending', 'success'], true)).toEqual({ index: 2, from: 'pending', to: 'success' });
    expect(firstChangeOffTable(['waiting', 'pending', 'submitted', 'success'], true)).toBeUndefined();
    expect(firstChangeOffTable(['pending', 'fallback'], false)).toEqual({ index: 1, from: 'pending', to: 'fallback' });
  });
});
