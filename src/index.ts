/** Programmatic API: start the simulator inside a test suite. */
export { startSimulator } from './simulator';
export type { RunningSimulator, SimulatorControl, StartSimulatorOptions, SimulatorChainSummary, SimulatorAccountSummary } from './simulator';
export type { RequestStatus, FailReason, RefundFailReason } from './domain/requestStatus';
export type { RequestType } from './domain/requestRecord';
