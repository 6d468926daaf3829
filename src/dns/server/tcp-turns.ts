// Turns at the server for TCP connections with messages waiting (the tcpflood2 attack: 256
// connections pipelining 3,000 queries each made the event loop answer thousands of messages
// between two accepts, so a 9th address waited ~22 s to be let in). Connections with a whole
// message ready take one message each, round robin, and at most TURN_BUDGET messages are taken
// per turn of the event loop; then the loop polls its sockets (accepts, UDP, reads) before the
// next turn. Work per turn is bounded whatever the number of connections.

/** Messages answered per event-loop turn over all TCP connections: ~64 answers is a few ms of work. */
const TURN_BUDGET = 64;

/** Takes one message of a connection; true when it has another ready to take. */
export type TakeOne = () => boolean;

export class TcpTurns {
  private readonly waiting = new Set<TakeOne>();
  private scheduled = false;

  /** Asks for turns for a connection until its `take` says it has nothing more ready. */
  request(take: TakeOne): void {
    this.waiting.add(take);
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => this.turn());
  }

  private turn(): void {
    this.scheduled = false;
    let budget = TURN_BUDGET;
    // Each pass gives every waiting connection one message; each take spends the budget, so this ends.
    while (budget > 0 && this.waiting.size) {
      for (const take of [...this.waiting]) {
        if (budget <= 0) break;
        budget--;
        // Deleted and re-added: a connection with more goes to the back of the line.
        this.waiting.delete(take);
        if (take()) this.waiting.add(take);
      }
    }
    if (this.waiting.size && !this.scheduled) {
      this.scheduled = true;
      setImmediate(() => this.turn());
    }
  }
}
