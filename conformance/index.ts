/**
 * The conformance suite: checks any deployment of the interface (SPEC.md) over HTTP. It imports
 * nothing from the simulator (src/), so it can catch the simulator's own mistakes.
 */
export { runConformance, selectChecks, tagsOf, type ConformanceOptions, type ConformanceReport, type SectionScore } from './runConformance';
export { allChecks } from './checks';
export { CheckSkipped, RuleBroken, ruleBroken, skipCheck, type CheckContext, type CheckResult, type ConformanceCheck, type ConformanceMode } from './check';
export { ConformanceHttp, type Exchange } from './http';
export { probeBaseUrl } from './probeBaseUrl';
export { ConformanceTarget, type TargetChain, type TargetOptions } from './target';
export { parseShard, shardOfKey, shardReportPath, ShardSpecError, type Shard } from './shard';
export { describeFailure, jsonReport, junitReport, progressLine, terminalReport } from './report/conformanceReports';
