import type { VirtualClock } from '../clock/VirtualClock';
import type { SimulatorConfig } from '../config/simulatorConfig';
import { RequestEventBus, type CommittedStatusChange } from '../events/RequestEventBus';
import { StatusStreamServer } from '../events/statusStream/StatusStreamServer';
import { WebhookDispatcher } from '../events/webhooks/WebhookDispatcher';
import { WebhookOutbox } from '../events/webhooks/WebhookOutbox';
import { RequestLifecycle } from '../lifecycle/transitionRequest';
import { RequestRecordWriter } from '../store/RequestRecordWriter';
import type { SimulatorStores } from './simulatorStores';

/** The one status writer and what publishes its changes: the bus, webhook deliveries, the websocket stream. */
export interface RequestEvents {
  events: RequestEventBus;
  lifecycle: RequestLifecycle;
  webhookDispatcher: WebhookDispatcher;
  statusStream: StatusStreamServer;
  /** Starts webhook deliveries (those a previous run left pending first). */
  startDeliveries(): void;
  /** Stops delivering webhooks (the status stream closes with the HTTP server). */
  stop(): Promise<void>;
}

/**
 * Builds the lifecycle (the request record writer is handed to it and nothing else) and what
 * publishes its changes; `onStatusChange` hears every change from the very first.
 */
export function createRequestEvents(
  config: SimulatorConfig,
  deps: { stores: SimulatorStores; clock: VirtualClock; log: (message: string, error?: unknown) => void; onStatusChange?: (change: CommittedStatusChange) => void },
): RequestEvents {
  const { stores, clock, log } = deps;
  const events = new RequestEventBus();
  if (deps.onStatusChange) events.subscribe(deps.onStatusChange);
  const lifecycle = new RequestLifecycle({
    requests: stores.requests,
    writer: new RequestRecordWriter(stores.db),
    clock,
    bus: events,
    outbox: new WebhookOutbox(stores.webhooks),
    appFees: stores.appFees,
  });
  const webhookDispatcher = new WebhookDispatcher({ store: stores.webhooks, clock, bus: events, retryBaseMs: config.webhookRetryBaseMs, requestTimeoutMs: config.webhookTimeoutMs, log });
  const statusStream = new StatusStreamServer({ bus: events, apiKeys: stores.apiKeys, clock });
  return { events, lifecycle, webhookDispatcher, statusStream, startDeliveries: () => webhookDispatcher.start(), stop: () => webhookDispatcher.stop() };
}
