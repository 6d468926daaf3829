/** One dynamic DNS answer, whatever format it came in. */
export interface DyndnsResult {
  success: boolean;
  /** The address the provider now holds for the host, when the answer says. */
  address?: string;
  /** Whether the provider changed the record; undefined when the answer does not say. */
  changed?: boolean;
  messages: string[];
}

export type DyndnsFormat = 'json' | 'xml' | 'plain';
export const DYNDNS_FORMATS: readonly DyndnsFormat[] = ['json', 'xml', 'plain'];
