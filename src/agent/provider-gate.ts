// The one place every provider call of the agent passes through: dynamic DNS updates and
// registrar API calls (each page of a list, each retry) are wrapped here, whoever makes them,
// so a new kind of update is counted without anyone remembering to count it. Each call takes
// one unit of the hourly budget, none starts once ddedge is stopping, and a second stop
// request aborts the ones in flight.
import type { Transport, WireRequest, WireResponse } from '../http/transport.js';
import { BudgetSpentError, type CallBudget } from '../state/budget.js';
import { StateSaveError } from '../state/state-save-error.js';
import { StoppingError, type Shutdown } from './shutdown.js';

export class ProviderGate {
  constructor(
    private readonly budget: CallBudget,
    private readonly shutdown?: Shutdown,
  ) {}

  /** The transport, with every request counted and stoppable. */
  wrap(inner: Transport): Transport {
    const gate = this;
    return {
      async send(request: WireRequest): Promise<WireResponse> {
        gate.admit();
        const shutdown = gate.shutdown;
        if (!shutdown) return inner.send(request);
        try {
          return await inner.send({ ...request, signal: AbortSignal.any([request.signal, shutdown.signal]) });
        } catch (error) {
          if (shutdown.signal.aborted) throw new StoppingError('request aborted: ddedge is stopping');
          throw error;
        }
      },
      close: inner.close ? () => inner.close!() : undefined,
    };
  }

  private admit(): void {
    if (this.shutdown?.stopping) throw new StoppingError('not sent: ddedge is stopping');
    this.budget.take();
  }
}

/** Refusals of the gate itself: no other path (the API fallback) would fare better. */
export const isGateRefusal = (error: unknown): boolean =>
  error instanceof BudgetSpentError || error instanceof StoppingError || error instanceof StateSaveError;
