import type { ConformanceHttp, Exchange } from './http';
import type { ConformanceTarget } from './target';

/** How much a run may do to the target: `read-only` never pays and never calls `/admin`; `full` pays deposits and uses the control plane where there is one. */
export type ConformanceMode = 'read-only' | 'full';

/**
 * One rule of the SPEC, checked over HTTP. `section` is the SPEC section the rule comes from
 * ("2.2", "7.1", …): reports score by it and a failure names it. `tags` select checks with
 * `--only` (the section number, its top level and the family name always count as tags).
 */
export interface ConformanceCheck {
  id: string;
  section: string;
  title: string;
  /** `read-only` checks also run in full mode; `full` checks need deposits or the control plane. */
  mode: ConformanceMode;
  tags?: readonly string[];
  run(context: CheckContext): Promise<void>;
}

/** What a check gets: an HTTP client that records every exchange, and what is known of the target. */
export interface CheckContext {
  http: ConformanceHttp;
  target: ConformanceTarget;
  mode: ConformanceMode;
}

/** A rule the target broke: the rule in words, and the exchange that showed it. */
export class RuleBroken extends Error {
  constructor(
    readonly rule: string,
    readonly detail: string,
    readonly exchange?: Exchange,
  ) {
    super(`${rule}: ${detail}`);
    this.name = 'RuleBroken';
  }
}

/** Thrown by a check that cannot run against this target (no control plane, no funded account, …). */
export class CheckSkipped extends Error {
  constructor(readonly reason: string) {
    super(reason);
    this.name = 'CheckSkipped';
  }
}

export function ruleBroken(rule: string, detail: string, exchange?: Exchange): never {
  throw new RuleBroken(rule, detail, exchange);
}

export function skipCheck(reason: string): never {
  throw new CheckSkipped(reason);
}

/** What a run says of one check. */
export interface CheckResult {
  id: string;
  section: string;
  title: string;
  outcome: 'pass' | 'fail' | 'skip';
  durationMs: number;
  /** A failure: the rule, what was seen, and the request and response excerpt that showed it. */
  failure?: { rule: string; detail: string; request?: string; response?: string };
  skipReason?: string;
}
