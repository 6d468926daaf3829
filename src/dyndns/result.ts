/** One dynamic DNS answer, whatever format it came in. */
export interface DyndnsResult {
  success: boolean;
  /** The host the answer is about, when it names one (JSON and XML do). */
  host?: string;
  /** The address the provider now holds for the host, when the answer says. */
  address?: string;
  /** Whether the provider changed the record; undefined when the answer does not say. */
  changed?: boolean;
  messages: string[];
  /** Set on a refusal whose structure shows the user and key were accepted (a host or resData part). */
  credentialsAccepted?: true;
}

export type DyndnsFormat = 'json' | 'xml' | 'plain';
export const DYNDNS_FORMATS: readonly DyndnsFormat[] = ['json', 'xml', 'plain'];
