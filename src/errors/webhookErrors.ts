import { SimulatorError } from './SimulatorError';

/** Admin interface: an API key the simulator does not know. */
export class ApiKeyNotFoundError extends SimulatorError {
  constructor(apiKey: string) {
    super('API_KEY_NOT_FOUND', 404, `No API key ${apiKey}`);
  }
}

/** Admin interface: the API key has no webhook endpoint configured. */
export class WebhookNotConfiguredError extends SimulatorError {
  constructor(apiKey: string) {
    super('WEBHOOK_NOT_CONFIGURED', 404, `API key ${apiKey} has no webhook endpoint`);
  }
}
