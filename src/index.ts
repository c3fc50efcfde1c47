/** Programmatic API: start the simulator inside a test suite. */
export { startSimulator } from './simulator';
export type { RunningSimulator, SimulatorControl, StartSimulatorOptions, SimulatorChainSummary, SimulatorAccountSummary } from './simulator';
export type { RequestStatus, FailReason, RefundFailReason } from './domain/request/requestStatus';
export type { RequestType } from './domain/request/requestRecord';
export { verifyWebhookSignature, checkWebhookSignature, signWebhookBody, SIGNATURE_HEADER, SIGNATURE_TIMESTAMP_HEADER } from './events/webhooks/webhookSignature';
export type { VerifyWebhookSignatureParameters, VerifyWebhookSignatureResult } from './events/webhooks/webhookSignature';
export { checkWebhookReceiver, type WebhookCheckReport } from './events/webhooks/checkWebhookReceiver';
export type { WebhookPayload } from './domain/webhook/webhookPayload';
