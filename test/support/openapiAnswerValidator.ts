import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import type { ValidateFunction } from 'ajv';

/** The parts of an OpenAPI document the validator reads. */
export type OpenApiDocument = { paths: Record<string, Record<string, { responses: Record<string, { content?: Record<string, unknown> }> }>> };

/** One answer the simulator gave, as a client saw it. */
export interface RecordedAnswer {
  method: string;
  url: string;
  status: number;
  /** The parsed JSON body (undefined when there is none). */
  json: unknown;
}

/** Which documented operation an answer belongs to, and whether it matched its schema. */
export interface AnswerVerdict {
  operation: string | undefined;
  status: number;
  problems: string[];
}

const escapePointer = (segment: string) => segment.replace(/~/g, '~0').replace(/\//g, '~1');

/**
 * Validates live answers against an OpenAPI 3.1 document with ajv in its draft 2020-12 mode (the
 * dialect of OpenAPI 3.1): the answer's path and method name the operation, its status the
 * response, whose JSON schema the body must match. An undocumented status is a problem too.
 */
export class OpenApiAnswerValidator {
  private readonly ajv = new Ajv2020({ strict: false, allErrors: true });
  private readonly compiled = new Map<string, ValidateFunction>();
  private readonly templates: { template: string; pattern: RegExp }[];

  constructor(private readonly document: OpenApiDocument, private readonly documentId: string) {
    addFormats(this.ajv);
    this.ajv.addSchema(document as object, documentId);
    // exact paths first, so /requests/v3 never reads as a template
    this.templates = Object.keys(document.paths)
      .sort((a, b) => Number(a.includes('{')) - Number(b.includes('{')))
      .map((template) => ({ template, pattern: new RegExp(`^${template.replace(/\{[^}]+\}/g, '[^/]+')}$`) }));
  }

  /** `METHOD /template` of the operation a request reached, or undefined when the document has none. */
  operationOf(method: string, url: string): string | undefined {
    const pathname = new URL(url).pathname;
    const lower = method.toLowerCase();
    const found = this.templates.find(({ template, pattern }) => pattern.test(pathname) && this.document.paths[template]?.[lower]);
    return found ? `${method.toUpperCase()} ${found.template}` : undefined;
  }

  /** The problems of `value` against the schema at `pointer` in the document (e.g. a webhook's request body). */
  problemsAt(pointer: readonly string[], value: unknown, label = pointer.join(' ')): string[] {
    const key = pointer.join(' ');
    let validate = this.compiled.get(key);
    if (!validate) {
      validate = this.ajv.compile({ $ref: `${this.documentId}#/${pointer.map(escapePointer).join('/')}` });
      this.compiled.set(key, validate);
    }
    if (validate(value)) return [];
    return [...(validate.errors ?? []).slice(0, 8).map((error) => `${label}: ${error.instancePath || '(body)'} ${error.message} ${JSON.stringify(error.params)}`), `  body: ${JSON.stringify(value).slice(0, 600)}`];
  }

  /** The answer against its operation: the one its URL names, or `calledOperation` (`METHOD /template`) when the caller knows which it called. */
  verdict(answer: RecordedAnswer, calledOperation?: string): AnswerVerdict {
    const operation = calledOperation ?? this.operationOf(answer.method, answer.url);
    if (!operation) return { operation, status: answer.status, problems: [] };
    const [method, template] = operation.split(' ') as [string, string];
    const response = this.document.paths[template]![method.toLowerCase()]!.responses[String(answer.status)];
    if (!response) return { operation, status: answer.status, problems: [`${operation}: status ${answer.status} is not in the document`] };
    if (!response.content) return { operation, status: answer.status, problems: answer.json === undefined ? [] : [`${operation} ${answer.status}: a body where the document has none`] };
    const pointer = ['paths', template, method.toLowerCase(), 'responses', String(answer.status), 'content', 'application/json', 'schema'];
    return { operation, status: answer.status, problems: this.problemsAt(pointer, answer.json, `${operation} ${answer.status}`) };
  }
}

/**
 * Records every answer `fetch` gets from `baseUrl` while installed (the conformance suite and the
 * test's own requests go through the global fetch): the body is read from a clone, so the caller
 * reads its answer as usual.
 */
export function recordAnswersOf(baseUrl: string): { answers: RecordedAnswer[]; restore: () => void } {
  const answers: RecordedAnswer[] = [];
  const original = globalThis.fetch;
  globalThis.fetch = async (input, init) => {
    const response = await original(input, init);
    const url = typeof input === 'string' ? input : input instanceof URL ? input.toString() : input.url;
    if (url.startsWith(baseUrl)) {
      const text = await response.clone().text();
      let json: unknown;
      try {
        json = text.length > 0 ? JSON.parse(text) : undefined;
      } catch {
        json = undefined;
      }
      answers.push({ method: init?.method ?? (input instanceof Request ? input.method : 'GET'), url, status: response.status, json });
    }
    return response;
  };
  return { answers, restore: () => void (globalThis.fetch = original) };
}
