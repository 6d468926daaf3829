import type { Module } from './types.js';

export const tool = {
  hello: { describe: 'Connection test: the caller address as the API sees it, language and version', params: {}, idempotent: true },
} satisfies Module;

export interface HelloData {
  ip: string;
  lang: string;
  version: string;
}
