import { describe, expect, it } from 'vitest';
import { orderRequestTimeline, timelineKeys } from '../../../src/domain/request/requestTimelineOrder';

const { quote, status, transaction, webhookAttempt } = timelineKeys;

describe('orderRequestTimeline', () => {
  it('places transactions by the status event they were recorded after, not by any time, even when the clock stood still', () => {
    const at = 1_700_000_000_000;
    const order = orderRequestTimeline({
      quoteKey: quote,
      statusChanges: [
        { seq: 9, at },
        { seq: 4, at },
        { seq: 12, at },
      ],
      // the refund recorded with the last change (after event 9), the deposit with the second (after event 4)
      transactions: [
        { key: transaction('in', 0), recordedAfterEventSeq: 4 },
        { key: transaction('out', 0), recordedAfterEventSeq: 9 },
      ],
      clockItems: [
        { key: webhookAttempt(1, 1), at, afterEventSeq: 4 },
        { key: webhookAttempt(2, 1), at, afterEventSeq: 12 },
      ],
    });
    expect(order).toEqual([quote, status(4), transaction('in', 0), status(9), transaction('out', 0), status(12), webhookAttempt(1, 1), webhookAttempt(2, 1)]);
  });

  it('without the mark, puts a transaction just before the first change that reported it, else last; webhook attempts by time, after their own change and the transactions placed with it', () => {
    const order = orderRequestTimeline({
      quoteKey: quote,
      statusChanges: [
        { seq: 1, at: 1_000 },
        { seq: 2, at: 2_000 },
        { seq: 3, at: 3_000 },
      ],
      transactions: [
        { key: transaction('in', 0), reportedBySeq: 2 },
        { key: transaction('out', 0) },
      ],
      clockItems: [
        { key: webhookAttempt(1, 1), at: 1_500, afterEventSeq: 1 },
        { key: webhookAttempt(1, 2), at: 3_500, afterEventSeq: 1 },
        { key: webhookAttempt(3, 1), at: 2_500, afterEventSeq: 3 },
      ],
    });
    expect(order).toEqual([quote, status(1), transaction('in', 0), webhookAttempt(1, 1), status(2), status(3), transaction('out', 0), webhookAttempt(3, 1), webhookAttempt(1, 2)]);
  });
});
