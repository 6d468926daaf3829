// Build step: V8's code cache for the chunks of a common cycle (see bootstrap/launcher.ts). It
// runs `ddedge update` once, as a timer does: a child process started with no flags (V8
// refuses a cache made under other V8 flags), address sources on loopback that agree (two DNS
// whoami servers as the default list asks first, and two HTTP echoes, all asked at once by a
// quorum of four, so both paths are compiled), and a state saying the address is already
// sent, so nothing is sent. At its exit the child saves
// the cache of every chunk it ran, which holds each function the cycle compiled
// (build/code-cache-cycle.mjs).
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startWhoamiDns } from './whoami-dns.mjs';

const ADDRESS = '81.0.2.15';
const HOST = 'home.example.com';

/** Makes dist/chunks/*.v8cache; returns the files written. */
export async function makeCodeCache(dist) {
  const cycle = join(import.meta.dirname, 'code-cache-cycle.mjs');
  await commonCycle([process.execPath, cycle]);
  const written = readdirSync(join(dist, 'chunks')).filter((name) => name.endsWith('.v8cache'));
  if (!written.includes('main.cjs.v8cache')) throw new Error('the code-cache cycle wrote no cache for chunks/main.cjs');
  return written.map((name) => join(dist, 'chunks', name));
}

/**
 * Runs `command update` as a timer does (see the top of this file), with `env` added; a
 * program that saves its caches at exit (the launcher does, in CACHE_DIRECTORY) saves the
 * common cycle's. Used for the single executables too (packaging/sea.mjs).
 */
export async function commonCycle([file, ...args], extraEnv = {}) {
  const work = mkdtempSync(join(tmpdir(), 'ddedge-code-cache-'));
  const sources = [echoSource(), echoSource()];
  const dns = await Promise.all([startWhoamiDns(ADDRESS), startWhoamiDns(ADDRESS)]);
  try {
    const urls = await Promise.all(sources.map(listening));
    const stateDir = join(work, 'state');
    mkdirSync(stateDir);
    const record = { host: HOST, type: 'A', address: ADDRESS, sentAt: new Date().toISOString(), via: 'dyndns' };
    writeFileSync(join(stateDir, 'state.json'), JSON.stringify({ version: 1, records: { [`${HOST}/A`]: record } }));
    const env = {
      PATH: process.env.PATH,
      HOME: work,
      DDEDGE_HOSTS: HOST,
      DDEDGE_STATE_DIR: stateDir,
      DDEDGE_IP_SOURCES: [
        `dns:myip.opendns.com@${dns[0].server}`,
        `dns-txt:o-o.myaddr.l.google.com@${dns[1].server}`,
        ...urls.map((url) => `url:${url}`),
      ].join(','),
      DDEDGE_IP_QUORUM: '4',
      DDEDGE_DYNDNS_USER: 'code-cache',
      DDEDGE_DYNDNS_KEY: 'code-cache',
      // Nothing is sent (the state says the address is current), and if that ever changed the
      // build must still talk to no one but itself: the provider's URLs point at loopback.
      DDEDGE_DYNDNS_URL: urls[0],
      DDEDGE_API_URL: urls[0],
      ...extraEnv,
    };
    const stdout = await new Promise((resolve, reject) =>
      execFile(file, [...args, 'update'], { env, timeout: 30_000 }, (error, out, err) =>
        error ? reject(new Error(`the code-cache cycle failed: ${err || error.message}`)) : resolve(out),
      ),
    );
    if (stdout !== `${HOST} A ${ADDRESS} unchanged\n`)
      throw new Error(`the code-cache cycle printed ${JSON.stringify(stdout)}`);
  } finally {
    await Promise.all(sources.map((server) => new Promise((resolve) => server.close(resolve))));
    for (const server of dns) server.socket.close();
    rmSync(work, { recursive: true, force: true });
  }
}

function echoSource() {
  return createServer((_request, response) => response.end(`${ADDRESS}\n`));
}

function listening(server) {
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${server.address().port}/`)),
  );
}
