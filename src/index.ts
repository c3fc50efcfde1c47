/** Programmatic API: start the simulator inside a test suite. */
export { startSimulator } from './simulator';
export type { RunningSimulator, SimulatorControl, StartSimulatorOptions, SimulatorChainSummary, SimulatorAccountSummary } from './simulator';
export type { RequestStatus, FailReason, RefundFailReason } from './domain/request/requestStatus';
export type { RequestType } from './domain/request/requestRecord';
export type { DecodedRevert } from './domain/fill/decodedRevert';
export { verifyWebhookSignature, checkWebhookSignature, signWebhookBody, SIGNATURE_HEADER, SIGNATURE_TIMESTAMP_HEADER } from './events/webhooks/webhookSignature';
export type { VerifyWebhookSignatureParameters, VerifyWebhookSignatureResult } from './events/webhooks/webhookSignature';
export { checkWebhookReceiver, type WebhookCheckReport } from './events/webhooks/checkWebhookReceiver';
export type { WebhookPayload } from './domain/webhook/webhookPayload';
export { runScenario, SCENARIO_CLOCK_START_MS, type ScenarioResult, type RunScenarioOptions } from './scenario/runScenario';
export { loadScenarioFile, ScenarioFileError } from './scenario/loadScenarioFile';
export { runScenarioFiles, type ScenarioFileOutcome } from './scenario/runScenarioFiles';
export { startChainNodes, type ChainNodes } from './chains/startChainNodes';
export { runConformance, allChecks as conformanceChecks, ConformanceHttp, type ConformanceCheck, type ConformanceReport } from '../conformance';
