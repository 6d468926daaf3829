// What every emulated operation shares: the provider's error answers, paging, balance.
import type { SandboxModel } from '../model.js';

export class SandboxApiError extends Error {
  constructor(
    readonly code: number,
    readonly codeMessage: string,
    readonly messages: string[] = [],
  ) {
    super(codeMessage);
  }
}

export interface OperationRequest {
  fields: Record<string, string>;
  model: SandboxModel;
  callerAddress: string;
}

interface Operation {
  /** Changes the model: the sandbox saves it afterwards. */
  writes?: boolean;
  handle(request: OperationRequest): unknown;
}

export type Operations = Record<string, Operation>;

export const fail = (code: number, message: string, detail?: string): never => {
  throw new SandboxApiError(code, message, detail ? [detail] : []);
};

/** One page of items with the queryInfo block, as every list operation answers. */
export function page<T>(items: T[], fields: Record<string, string>, defaultLength = 1000) {
  const pageLength = Number(fields.pageLength ?? defaultLength);
  const pageNumber = Number(fields.page ?? 1);
  const slice = items.slice((pageNumber - 1) * pageLength, pageNumber * pageLength);
  return { slice, queryInfo: { page: pageNumber, pageLength, results: slice.length, total: items.length } };
}

export const truthy = (value: string | undefined): boolean => value === '1' || value === 'true';
export const nextId = (model: SandboxModel): number => model.nextId++;

/** Spends balance, or answers 1100 as the provider does when it is short. */
export function charge(model: SandboxModel, amount: number, what: string): { total: number; currency: string } {
  const total = Math.round(amount * 100) / 100;
  if (model.account.balance < total)
    fail(
      1100,
      'Insufficient balance',
      `${what} costs ${total} ${model.account.currency}; the balance is ${model.account.balance}`,
    );
  model.account.balance = Math.round((model.account.balance - total) * 100) / 100;
  return { total, currency: model.account.currency };
}

export const matches = (value: string | undefined, filter: string | undefined) => !filter || value === filter;
export const contains = (value: string, filter: string | undefined) =>
  !filter || value.toLowerCase().includes(filter.toLowerCase());
