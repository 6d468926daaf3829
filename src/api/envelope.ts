// The response envelope every operation answers with (api-core 2.1). Judged by its body,
// never by the HTTP status: the provider answers errors with HTTP 200.
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

export class MalformedEnvelope extends Error {}

export function parseJsonEnvelope(body: string): Envelope {
  let data: unknown;
  try {
    data = JSON.parse(body);
  } catch {
    throw new MalformedEnvelope('the answer is not JSON');
  }
  return toEnvelope(data);
}

/** Normalises a decoded envelope (JSON or XML) and checks its shape. */
export function toEnvelope(data: unknown): Envelope {
  if (typeof data !== 'object' || data === null || Array.isArray(data)) throw new MalformedEnvelope('the answer is not an envelope object');
  const record = data as Record<string, unknown>;
  const success = record.success === true || record.success === 1 || record.success === '1' || record.success === 'true';
  const failure = record.success === false || record.success === 0 || record.success === '0' || record.success === 'false';
  if (!success && !failure) throw new MalformedEnvelope('the answer has no "success" field');
  const errorCode = Number(record.errorCode ?? 0);
  if (!Number.isInteger(errorCode)) throw new MalformedEnvelope('"errorCode" is not a number');
  const messages = Array.isArray(record.messages) ? record.messages.map(String) : record.messages ? [String(record.messages)] : [];
  return {
    success,
    errorCode,
    errorCodeMsg: String(record.errorCodeMsg ?? ''),
    action: String(record.action ?? ''),
    version: String(record.version ?? ''),
    messages,
    responseData: record.responseData ?? {},
  };
}

export function throwIfFailed(envelope: Envelope, operation: string): void {
  if (!envelope.success) {
    throw new ApiError(envelope.errorCode || 1, envelope.errorCodeMsg, envelope.messages, envelope.action || operation);
  }
}
