import { z } from 'zod';

/** Headers the simulator sets itself on every delivery; custom headers may not replace them. */
const RESERVED_HEADERS = ['content-type', 'content-length', 'host', 'x-signature-timestamp', 'x-signature-sha256'];

/** An HTTP header name (RFC 9110 token). */
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/**
 * SPEC §6.1: the settings of an API key's one webhook endpoint (the dashboard's "Configure
 * Webhook"): enabled flag, URL, optional custom headers sent on every delivery.
 */
export const WebhookEndpointSettingsSchema = z
  .object({
    enabled: z.boolean().default(true),
    url: z.url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL' }),
    headers: z
      .record(z.string(), z.string().max(4096).refine((value) => !/[\r\n]/.test(value), 'header values may not contain line breaks'))
      .default({})
      .superRefine((headers, ctx) => {
        for (const name of Object.keys(headers)) {
          if (!HEADER_NAME.test(name)) ctx.addIssue({ code: 'custom', message: `"${name}" is not a valid header name` });
          else if (RESERVED_HEADERS.includes(name.toLowerCase())) ctx.addIssue({ code: 'custom', message: `"${name}" is set by the simulator and cannot be overridden` });
        }
      }),
  })
  .strict();

export type WebhookEndpointSettings = z.infer<typeof WebhookEndpointSettingsSchema>;
