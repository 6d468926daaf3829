// The engine's JSON as each engine writes it (src/containers/engine/shapes.ts): Docker's events
// before and after API 1.52 and before 1.22, podman 4's compat events (copied from a real
// `podman system service`), listing entries with null labels and a linked container's aliases.
import { describe, expect, it } from 'vitest';
import { readEvent, readListedContainer } from '../../../../src/containers/engine/shapes.js';

const limits = { maxLabels: 256, maxLabelChars: 4096 };
const ID = '68fd82d5ebccfbede77c29fe7085ae58ffd495c8cd0274ac8606ae6d565b8756';

describe("the engine's events", () => {
  it('reads a Docker start (API 1.22 to 1.51): the labels are the attributes but the engine’s own', () => {
    const line = {
      status: 'start',
      id: ID,
      from: 'alpine:latest',
      Type: 'container',
      Action: 'start',
      Actor: {
        ID,
        Attributes: { 'com.example.label': 'v', 'ddedge.hosts': 'a.example.com', image: 'alpine:latest', name: 'web' },
      },
      scope: 'local',
      time: 1461943101,
      timeNano: 1461943101381709600,
    };
    expect(readEvent(line, limits)).toEqual({
      value: {
        kind: 'started',
        id: ID,
        container: { id: ID, name: 'web', labels: { 'com.example.label': 'v', 'ddedge.hosts': 'a.example.com' } },
      },
    });
  });

  it('reads Docker 1.52+ (no status, id, from) and pre-1.22 Docker (status and id only, so looked up)', () => {
    const current = { Type: 'container', Action: 'die', Actor: { ID, Attributes: { exitCode: '0', name: 'web' } } };
    expect(readEvent(current, limits)).toEqual({ value: { kind: 'stopped', id: ID } });
    expect(readEvent({ status: 'start', id: ID, from: 'busybox', time: 1 }, limits)).toEqual({
      value: { kind: 'started', id: ID },
    });
    expect(readEvent({ status: 'destroy', id: ID, from: 'busybox', time: 1 }, limits)).toEqual({
      value: { kind: 'stopped', id: ID },
    });
  });

  it("reads podman 4's compat events: die, remove, and its own attributes left out of the labels", () => {
    const attributes = { containerExitCode: '0', 'ddedge.hosts': 'a.example.com', image: 'localhost/x', name: 't1' };
    const podman = (action: string, extra = {}) => ({
      status: action,
      id: ID,
      from: 'localhost/ddedge-busybox:test',
      Type: 'container',
      Action: action,
      Actor: { ID, Attributes: { ...attributes, podId: '', ...extra } },
      scope: 'local',
      time: 1796190434,
      timeNano: 1796190434876514600,
    });
    expect(readEvent(podman('start'), limits).value).toEqual({
      kind: 'started',
      id: ID,
      container: { id: ID, name: 't1', labels: { 'ddedge.hosts': 'a.example.com' } },
    });
    expect(readEvent(podman('die', { exitCode: '137' }), limits).value).toEqual({ kind: 'stopped', id: ID });
    expect(readEvent(podman('remove'), limits).value).toEqual({ kind: 'stopped', id: ID });
    expect(readEvent(podman('cleanup'), limits)).toEqual({});
    expect(readEvent(podman('init'), limits)).toEqual({});
  });

  it('ignores other kinds of events and refuses a container id that is not one', () => {
    expect(readEvent({ Type: 'network', Action: 'connect', Actor: { ID } }, limits)).toEqual({});
    expect(readEvent({ Type: 'container', Action: 'stop', Actor: { ID: 'web' } }, limits)).toEqual({
      problem: 'a stop event has no valid container id',
    });
    expect(readEvent({ Type: 'container', Action: 7, Actor: { ID } }, limits)).toEqual({});
    expect(readEvent('start', limits)).toEqual({ problem: 'an event is not an object' });
  });

  it('looks a started container up when its event names it with what no engine allows in a name', () => {
    const line = { Type: 'container', Action: 'start', Actor: { ID, Attributes: { name: 'a<b>', x: 'y' } } };
    expect(readEvent(line, limits)).toEqual({ value: { kind: 'started', id: ID } });
  });

  it('keeps a label named __proto__ as a label', () => {
    const line = JSON.parse(
      `{"Type":"container","Action":"start","Actor":{"ID":"${ID}","Attributes":{"__proto__":"x","name":"a"}}}`,
    );
    const value = readEvent(line, limits).value;
    const labels = value?.kind === 'started' ? value.container?.labels : undefined;
    expect(Object.getOwnPropertyDescriptor(labels, '__proto__')?.value).toBe('x');
  });
});

describe('the listing', () => {
  it('reads names without the slash, null labels as none, and a linked container by its own name', () => {
    expect(readListedContainer({ Id: ID, Names: ['/web'], Labels: null, State: 'running' }, limits)).toEqual({
      value: { id: ID, name: 'web', labels: {} },
    });
    expect(readListedContainer({ Id: ID, Names: ['/db/alias', '/db2'], Labels: { a: 'b' } }, limits).value).toEqual({
      id: ID,
      name: 'db2',
      labels: { a: 'b' },
    });
  });

  it('sets aside entries without an id or a name, and labels that are not text', () => {
    expect(readListedContainer({ Names: ['/x'] }, limits)).toEqual({
      problem: 'an entry of the listing has no valid Id',
    });
    expect(readListedContainer({ Id: ID, Names: [] }, limits).problem).toBe(
      'the container 68fd82d5ebcc has no valid name',
    );
    expect(readListedContainer({ Id: ID, Names: ['/a\u001b[2Jb'] }, limits).problem).toBe(
      'the container 68fd82d5ebcc has no valid name',
    );
    expect(readListedContainer({ Id: ID, Names: ['/x'], Labels: ['a'] }, limits).problem).toBe(
      'the labels of the container x are not an object',
    );
    expect(readListedContainer({ Id: ID, Names: ['/x'], Labels: { a: 1, b: 'c' } }, limits)).toEqual({
      value: { id: ID, name: 'x', labels: { b: 'c' } },
      problem:
        '1 label(s) of the container x were left out (not text, longer than 4096 characters, or past 256 labels)',
    });
  });
});
