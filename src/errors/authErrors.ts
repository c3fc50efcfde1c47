import { SimulatorError } from './SimulatorError';

/** SPEC §5 / §7.5: a missing or unknown `x-api-key` where one is required. */
export class MissingApiKeyError extends SimulatorError {
  constructor() {
    super('MISSING_API_KEY', 401, 'This endpoint requires an API key in the x-api-key header');
  }
}

export class InvalidApiKeyError extends SimulatorError {
  constructor() {
    super('INVALID_API_KEY', 401, 'The API key in the x-api-key header is not valid');
  }
}

/** Admin routes of a simulator reachable beyond loopback need the default API key. */
export class AdminKeyRequiredError extends SimulatorError {
  constructor() {
    super('ADMIN_KEY_REQUIRED', 403, 'This simulator listens beyond loopback: admin routes need the default API key (printed at start) in the x-api-key header');
  }
}
