// Which settings of a trusted ./.env get named in a warning: where requests and credentials go,
// what runs, whom it notifies. By name, so that a setting added later is covered too.
import { describe, expect, it } from 'vitest';
import { redirectingSettings } from '../../../src/config/dotenv-trust.js';

describe('the settings of an implicit ./.env that are named in a warning', () => {
  it('every URL, hook, notification target and address source, and the _FILE holding one', () => {
    const file = Object.fromEntries(
      [
        'DDEDGE_API_URL',
        'DDEDGE_DYNDNS_URL',
        'DDEDGE_PING_URL_FILE',
        'DDEDGE_ON_CHANGE',
        'DDEDGE_NOTIFY',
        'DDEDGE_NOTIFY_FILE',
        'DDEDGE_GATEWAY_NOTIFY',
        'DDEDGE_IP_SOURCES',
        'DDEDGE_IP6_SOURCES',
        'SOME_TOOL_URL',
      ].map((name) => [name, 'x']),
    );
    expect(redirectingSettings(file, {})).toEqual(Object.keys(file));
  });

  it('not the others, nor one the environment sets (its value is the one used)', () => {
    const file = {
      DDEDGE_ON_CHANGE_TIMEOUT: '5s',
      DDEDGE_TIMEOUT: '3s',
      DDEDGE_HOSTS: 'a.example.com',
      DDEDGE_API_PASSWORD: 'x',
      DDEDGE_API_URL: 'http://127.0.0.1:1',
      DDEDGE_STATE_DIR: '/tmp',
    };
    expect(redirectingSettings(file, { DDEDGE_API_URL: 'https://simple-api.dondominio.net' })).toEqual([]);
  });
});
