// The response envelope every operation answers with (api-core 2.1). Judged by its body,
// never by the HTTP status: the provider answers errors with HTTP 200. This is the one
// reader of the envelope: every field is checked for its documented shape here.
import { AnswerShapeError, readFields, readOptionalText, readTextList } from '../lib/answer-shape.js';
import { parseStrictJson } from '../lib/strict-json.js';
import { ApiError } from './errors.js';

export interface Envelope<T = unknown> {
  success: boolean;
  errorCode: number;
  errorCodeMsg: string;
  action: string;
  version: string;
  messages: string[];
  responseData: T;
}

export class MalformedEnvelope extends AnswerShapeError {}

export function parseJsonEnvelope(body: string): Envelope {
  return toEnvelope(parseStrictJson(body));
}

const TRUE = new Set<unknown>([true, 1, '1', 'true']);
const FALSE = new Set<unknown>([false, 0, '0', 'false']);

/** Normalises a decoded envelope (JSON or XML) and checks its shape. */
export function toEnvelope(data: unknown): Envelope {
  if (typeof data !== 'object' || data === null || Array.isArray(data))
    throw new MalformedEnvelope('the answer is not an envelope object');
  const record = readFields(data, 'the answer');
  const success = TRUE.has(record.success);
  if (!success && !FALSE.has(record.success)) throw new MalformedEnvelope('the answer has no "success" field');
  const code = record.errorCode ?? 0;
  const errorCode = typeof code === 'number' || typeof code === 'string' ? Number(code) : NaN;
  if (!Number.isInteger(errorCode)) throw new MalformedEnvelope('"errorCode" is not a number');
  return {
    success,
    errorCode,
    errorCodeMsg: readOptionalText(record.errorCodeMsg, '"errorCodeMsg"') ?? '',
    action: readOptionalText(record.action, '"action"') ?? '',
    version: readOptionalText(record.version, '"version"') ?? '',
    messages: readTextList(record.messages, '"messages"'),
    responseData: record.responseData ?? {},
  };
}

export function throwIfFailed(envelope: Envelope, operation: string, authAdvice?: string): void {
  if (!envelope.success) {
    throw new ApiError(
      envelope.errorCode || 1,
      envelope.errorCodeMsg,
      envelope.messages,
      envelope.action || operation,
      authAdvice,
    );
  }
}
