// The container examples of docs/running.md use the daemon's endpoint: the probes and the Prometheus
// annotations must name paths it serves and the port it is told to listen on.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { PATHS } from '../../../src/agent/endpoint-answers.js';
import { parseListenAddress } from '../../../src/lib/listen-address.js';

const readme = readFileSync(new URL('../../../docs/running.md', import.meta.url), 'utf8');
const yamlBlocks = [...readme.matchAll(/```yaml\n([\s\S]*?)```/g)].map((m) => m[1]!);
const example = (name: string) => readFileSync(new URL(`../../../examples/${name}`, import.meta.url), 'utf8');

describe('the container examples of docs/running.md and the endpoint', () => {
  it.each([
    ['docs/running.md', () => yamlBlocks.find((b) => /kind: Pod/.test(b))],
    ['examples/kubernetes.yaml', () => example('kubernetes.yaml')],
  ])(
    'Kubernetes (%s): liveness and readiness probes on /healthz at the listening port, Prometheus annotations on /metrics',
    (_where, read) => {
      const pod = read();
      expect(pod).toBeDefined();
      const listen = parseListenAddress(/DDEDGE_LISTEN, value: "([^"]+)"/.exec(pod!)![1]!);
      expect(typeof listen).toBe('object');
      const port = (listen as { port: number }).port;
      expect(pod).toContain(`containerPort: ${port}`);
      expect(pod).toMatch(/livenessProbe: \{ httpGet: \{ path: \/healthz, port: metrics \}/);
      expect(pod).toMatch(/readinessProbe: \{ httpGet: \{ path: \/healthz, port: metrics \}/);
      expect(pod).toContain('name: metrics, containerPort');
      expect(pod).toContain(`prometheus.io/port: "${port}"`);
      expect(pod).toContain('prometheus.io/path: /metrics');
      for (const path of pod!.match(/path: \/[a-z]+/g)!.map((p) => p.slice(6)))
        expect(PATHS as readonly string[]).toContain(path);
    },
  );

  it.each([
    ['docs/running.md', () => yamlBlocks.find((b) => /services:/.test(b))!],
    ['examples/compose.yaml', () => example('compose.yaml')],
  ])('compose (%s) and podman: the health check and the published port reach /healthz', (_where, read) => {
    const compose = read();
    const listen = parseListenAddress(/DDEDGE_LISTEN: (\S+)/.exec(compose)![1]!) as { port: number };
    expect(compose).toContain(`http://127.0.0.1:${listen.port}/healthz`);
    expect(readme).toMatch(/-e DDEDGE_LISTEN=0\.0\.0\.0:9464 -p 127\.0\.0\.1:9464:9464/);
    expect(readme).toContain('curl -fsS http://127.0.0.1:9464/healthz');
  });
});
