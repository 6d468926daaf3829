// detectAddress's decisions with the sources answered by the test (no server, no socket): which
// sources are asked when, what counts toward the quorum, when it ends and what it reports.
import { describe, expect, it } from 'vitest';
import { DNS_HEAD_START_MS, DetectionFailed, type DetectOptions, detectAddress } from '../../../src/ip/detect.js';
import type { SourceSpec } from '../../../src/ip/sources.js';
import type { Logger } from '../../../src/lib/log.js';
import { FakeClock, settle } from '../../helpers/fake-clock.js';

const dns = (name: string, server = name): SourceSpec => ({
  kind: 'dns',
  name,
  query: 'myip.example',
  server: `${server}:53`,
  rrtype: 'address',
});
type LogFields = Parameters<Logger['debug']>[1];

const echo = (name: string, host = `${name}.example`): SourceSpec => ({
  kind: 'url',
  name,
  url: `https://${host}/`,
});

interface Asked {
  answer(address: string | undefined): void;
  fail(message: string): void;
}

/** Sources the test answers: each asked one is waiting in `asked` under its name. */
function sources() {
  const asked = new Map<string, Asked>();
  const fetchSource: DetectOptions['fetchSource'] = (spec) =>
    new Promise<string>((resolve, reject) => {
      asked.set(spec.name, {
        answer: (address) => resolve(address as string),
        fail: (message) => reject(new Error(message)),
      });
    });
  const of = (name: string): Asked => {
    const source = asked.get(name);
    if (!source) throw new Error(`${name} was not asked`);
    return source;
  };
  return { asked, fetchSource, of };
}

function recorder(): Logger & { lines: { level: string; message: string; fields?: LogFields }[]; text(): string } {
  const lines: { level: string; message: string; fields?: LogFields }[] = [];
  const at =
    (level: string) =>
    (message: string, fields?: LogFields): void =>
      void lines.push({ level, message, fields });
  return {
    lines,
    error: at('error'),
    warn: at('warn'),
    info: at('info'),
    debug: at('debug'),
    text: () => lines.map((l) => `${l.level}: ${l.message}`).join('\n'),
  };
}

function start(specs: SourceSpec[], quorum: number, extra: Partial<DetectOptions> = {}) {
  const fake = sources();
  const clock = new FakeClock();
  const logger = recorder();
  let outcome: { address?: string; error?: unknown } | undefined;
  const detection = detectAddress({
    family: 4,
    sources: specs,
    quorum,
    timeoutMs: 1000,
    allowPrivate: false,
    logger,
    clock,
    fetchSource: fake.fetchSource,
    ...extra,
  });
  detection.then(
    (d) => (outcome = { address: d.address }),
    (error: unknown) => (outcome = { error }),
  );
  return { ...fake, clock, logger, detection, outcome: () => outcome };
}

const failure = async (detection: Promise<unknown>): Promise<DetectionFailed> => {
  const error = await detection.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(DetectionFailed);
  return error as DetectionFailed;
};

describe('stages', () => {
  it('asks the DNS sources alone first when they are enough different servers for the quorum', async () => {
    const run = start([dns('a'), echo('h1'), dns('b'), echo('h2')], 2);
    await settle();
    expect([...run.asked.keys()]).toEqual(['a', 'b']);
    run.of('a').answer('81.0.2.15');
    run.of('b').answer('81.0.2.15');
    expect((await run.detection).address).toBe('81.0.2.15');
    expect([...run.asked.keys()]).toEqual(['a', 'b']);
  });

  it('asks every source at once when the DNS sources are one server counted once', async () => {
    const run = start([dns('a', '192.0.2.7'), dns('b', '192.0.2.7'), echo('h1')], 2);
    await settle();
    expect([...run.asked.keys()].sort()).toEqual(['a', 'b', 'h1']);
  });

  it('asks every source at once when there are too few DNS sources, none, or no others', async () => {
    const few = start([dns('a'), echo('h1'), echo('h2')], 2);
    const none = start([echo('h1'), echo('h2')], 1);
    const onlyDns = start([dns('a'), dns('b')], 1);
    await settle();
    expect([...few.asked.keys()].sort()).toEqual(['a', 'h1', 'h2']);
    expect([...none.asked.keys()].sort()).toEqual(['h1', 'h2']);
    expect([...onlyDns.asked.keys()].sort()).toEqual(['a', 'b']);
    // Every source was asked: failures leave none to start late.
    few.of('a').fail('SERVFAIL');
    few.of('h1').fail('HTTP 502');
    await settle();
    expect(few.logger.text()).not.toMatch(/asking the other sources/);
    // Nothing to start late: no head start is waiting, only the deadline.
    expect(onlyDns.clock.pending).toBe(1);
    expect(onlyDns.clock.nextDue).toBe(onlyDns.clock.now() + 1000 + 250);
  });

  it('asks every source at once when every answer is wanted', async () => {
    const run = start([dns('a'), dns('b'), echo('h1')], 2, { waitForAll: true });
    await settle();
    expect([...run.asked.keys()].sort()).toEqual(['a', 'b', 'h1']);
  });

  it('starts the others after the head start, exactly, and says why', async () => {
    const run = start([dns('a'), dns('b'), echo('h1'), echo('h2')], 2);
    await run.clock.advanceAsync(DNS_HEAD_START_MS - 1);
    expect([...run.asked.keys()]).toEqual(['a', 'b']);
    await run.clock.advanceAsync(1);
    expect([...run.asked.keys()]).toEqual(['a', 'b', 'h1', 'h2']);
    const line = run.logger.lines.find((l) => l.message.startsWith('asking the other sources'));
    expect(line).toEqual({
      level: 'debug',
      message: `asking the other sources: no DNS quorum within ${DNS_HEAD_START_MS} ms`,
      fields: { sources: 'h1,h2' },
    });
    // A DNS failure after that starts nothing twice.
    run.of('a').fail('timed out');
    await settle();
    expect(run.logger.text().match(/asking the other sources/g)).toHaveLength(1);
  });

  it('keeps the others waiting while the DNS answers can still agree, and starts them when they cannot', async () => {
    const run = start([dns('a'), dns('b'), dns('c'), echo('h1')], 2);
    await settle();
    run.of('a').answer('81.0.2.15');
    run.of('b').answer('81.0.2.16');
    await settle();
    // One vote each and one DNS source yet to answer: a quorum of 2 is still possible.
    expect(run.asked.has('h1')).toBe(false);
    run.of('c').fail('refused');
    await settle();
    expect(run.asked.has('h1')).toBe(true);
    expect(run.logger.text()).toContain('asking the other sources: the DNS sources failed or disagree');
    run.of('h1').answer('81.0.2.16');
    expect((await run.detection).address).toBe('81.0.2.16');
  });

  it('starts the others at once when the first DNS answer fails', async () => {
    const run = start([dns('a'), dns('b'), echo('h1')], 2);
    await settle();
    run.of('a').fail('SERVFAIL');
    await settle();
    expect(run.asked.has('h1')).toBe(true);
    expect(run.clock.now()).toBe(new FakeClock().now());
    // The head start is over: only the deadline is left waiting.
    expect(run.clock.pending).toBe(1);
  });

  it('does not start the others once the DNS answers made the quorum, whatever comes later', async () => {
    const run = start([dns('a'), dns('b'), dns('c'), echo('h1')], 2, { waitForAll: false });
    await settle();
    run.of('a').answer('81.0.2.15');
    run.of('b').answer('81.0.2.15');
    await run.detection;
    run.of('c').fail('late');
    await run.clock.advanceAsync(10 * DNS_HEAD_START_MS);
    expect(run.asked.has('h1')).toBe(false);
  });
});

describe('the quorum', () => {
  it('ends as soon as enough different servers agree, with the answers so far', async () => {
    const run = start([echo('h1'), echo('h2'), echo('h3')], 2);
    await settle();
    run.of('h1').answer('81.0.2.15');
    await settle();
    expect(run.outcome()).toBeUndefined();
    await run.clock.advanceAsync(40);
    run.of('h2').answer('81.0.2.15');
    const detection = await run.detection;
    expect(detection).toEqual({
      address: '81.0.2.15',
      answers: [
        { source: 'h1', address: '81.0.2.15', ms: 0 },
        { source: 'h2', address: '81.0.2.15', ms: 40 },
      ],
    });
    expect(run.logger.lines).toContainEqual({
      level: 'debug',
      message: 'source answered',
      fields: { source: 'h2', address: '81.0.2.15', ms: 40 },
    });
    // A late answer changes nothing: the detection is over, the deadline cancelled.
    run.of('h3').answer('81.0.2.99');
    await settle();
    expect(detection.answers).toHaveLength(2);
    expect(run.clock.pending).toBe(0);
  });

  it('a quorum of one ends at the first useful answer', async () => {
    const run = start([echo('h1'), echo('h2')], 1);
    await settle();
    run.of('h1').answer('81.0.2.15');
    expect((await run.detection).address).toBe('81.0.2.15');
  });

  it('counts one server once, however many sources ask it', async () => {
    const run = start([echo('h1', 'same.example'), echo('h2', 'same.example'), echo('h3')], 2);
    await settle();
    run.of('h1').answer('81.0.2.15');
    run.of('h2').answer('81.0.2.15');
    await settle();
    expect(run.outcome()).toBeUndefined();
    run.of('h3').answer('81.0.2.15');
    expect((await run.detection).address).toBe('81.0.2.15');
  });

  it('counts the same address written two ways as one', async () => {
    const run = start([echo('h1'), echo('h2')], 2, { family: 6 });
    await settle();
    run.of('h1').answer('2A00:1450:0:0::1');
    run.of('h2').answer('2a00:1450::1');
    const detection = await run.detection;
    expect(detection.address).toBe('2a00:1450::1');
    expect(detection.answers.map((a) => a.address)).toEqual(['2a00:1450::1', '2a00:1450::1']);
  });

  it('when every answer is wanted, waits for them all and keeps the first address to reach the quorum', async () => {
    const run = start([echo('h1'), echo('h2'), echo('h3'), echo('h4')], 2, { waitForAll: true });
    await settle();
    run.of('h1').answer('81.0.2.15');
    run.of('h2').answer('81.0.2.15');
    run.of('h3').answer('81.0.2.16');
    await settle();
    expect(run.outcome()).toBeUndefined();
    run.of('h4').answer('81.0.2.16');
    const detection = await run.detection;
    expect(detection.address).toBe('81.0.2.15');
    expect(detection.answers.map((a) => a.source)).toEqual(['h1', 'h2', 'h3', 'h4']);
  });

  it('when every answer is wanted and the quorum is met, the deadline still ends it', async () => {
    const run = start([echo('h1'), echo('h2'), echo('h3')], 2, { waitForAll: true, timeoutMs: 3000 });
    await settle();
    run.of('h1').answer('81.0.2.15');
    run.of('h2').answer('81.0.2.15');
    await run.clock.advanceAsync(3249);
    expect(run.outcome()).toBeUndefined();
    await run.clock.advanceAsync(1);
    const detection = await run.detection;
    expect(detection.address).toBe('81.0.2.15');
    expect(detection.answers[2]).toEqual({ source: 'h3', error: 'no answer before the deadline', ms: 3000 });
  });
});

describe('refusals and failures', () => {
  it('refuses a non-public answer: logged with its reason, not counted', async () => {
    const run = start([echo('h1'), echo('h2'), echo('h3')], 2);
    await settle();
    run.of('h1').answer('10.1.2.3');
    run.of('h2').answer('81.0.2.15');
    run.of('h3').answer('81.0.2.15');
    const detection = await run.detection;
    expect(detection.answers[0]).toEqual({
      source: 'h1',
      address: '10.1.2.3',
      error: 'refused: private (RFC 1918)',
      ms: 0,
    });
    expect(run.logger.lines).toContainEqual({
      level: 'warn',
      message: 'refused 10.1.2.3 from h1: private (RFC 1918) (use --allow-private-ip to accept it)',
      fields: undefined,
    });
  });

  it('counts a non-public answer when allowed', async () => {
    const run = start([echo('h1')], 1, { allowPrivate: true });
    await settle();
    run.of('h1').answer('10.1.2.3');
    expect((await run.detection).address).toBe('10.1.2.3');
    expect(run.logger.lines.filter((l) => l.level === 'warn')).toEqual([]);
  });

  it('reports every answer when none is useful, each with its error', async () => {
    const run = start([echo('h1'), echo('h2'), echo('h3')], 1);
    await settle();
    run.of('h1').fail('HTTP 502');
    await run.clock.advanceAsync(7);
    run.of('h2').answer(undefined);
    run.of('h3').answer('192.168.0.1');
    const error = await failure(run.detection);
    expect(error.reason).toBe(
      'no IPv4 source answered usefully (h1: HTTP 502; h2: no address; h3: 192.168.0.1 refused: private (RFC 1918))',
    );
    expect(error.message).toBe(`${error.reason}; nothing was sent`);
    expect(error.answers).toEqual([
      { source: 'h1', error: 'HTTP 502', ms: 0 },
      { source: 'h2', error: 'no address', ms: 7 },
      { source: 'h3', address: '192.168.0.1', error: 'refused: private (RFC 1918)', ms: 7 },
    ]);
    expect(run.logger.lines).toContainEqual({
      level: 'debug',
      message: 'source failed',
      fields: { source: 'h1', error: 'HTTP 502', ms: 0 },
    });
  });

  it('says the sources disagree when answers were counted but none reached the quorum', async () => {
    const run = start([echo('h1'), echo('h2')], 2, { family: 6 });
    await settle();
    run.of('h1').answer('2a00:1450::1');
    run.of('h2').answer('2a00:1450::2');
    const error = await failure(run.detection);
    expect(error.reason).toBe(
      'IPv6 sources disagree: no address was reported by 2 sources (h1: 2a00:1450::1; h2: 2a00:1450::2)',
    );
  });

  it('gives up at the deadline, the head start added when the others start late', async () => {
    const run = start([dns('a'), dns('b'), echo('h1')], 2, { timeoutMs: 2000 });
    await settle();
    run.of('a').answer('81.0.2.15');
    await run.clock.advanceAsync(2000 + 250 + DNS_HEAD_START_MS - 1);
    expect(run.outcome()).toBeUndefined();
    await run.clock.advanceAsync(1);
    const error = await failure(run.detection);
    expect(error.answers).toEqual([
      { source: 'a', address: '81.0.2.15', ms: 0 },
      { source: 'b', error: 'no answer before the deadline', ms: 2000 },
      { source: 'h1', error: 'no answer before the deadline', ms: 2000 },
    ]);
    expect(error.reason).toMatch(/^IPv4 sources disagree/);
  });

  it('an answer after the deadline changes nothing', async () => {
    const run = start([echo('h1')], 1, { timeoutMs: 100 });
    await settle();
    await run.clock.advanceAsync(350);
    const error = await failure(run.detection);
    run.of('h1').answer('81.0.2.15');
    await settle();
    expect(error.answers).toEqual([{ source: 'h1', error: 'no answer before the deadline', ms: 100 }]);
  });

  it('an answer after the deadline changes nothing when every answer is wanted either', async () => {
    // `ddedge ip --json` prints the answers of both families at the end: one given up at the
    // IPv4 deadline must not come back, twice, while IPv6 is asked.
    const run = start([echo('h1'), echo('h2')], 1, { timeoutMs: 100, waitForAll: true });
    await settle();
    run.of('h1').answer('81.0.2.15');
    await run.clock.advanceAsync(350);
    const detection = await run.detection;
    run.of('h2').answer('81.0.2.16');
    await settle();
    expect(detection.answers).toEqual([
      { source: 'h1', address: '81.0.2.15', ms: 0 },
      { source: 'h2', error: 'no answer before the deadline', ms: 100 },
    ]);
  });
});
