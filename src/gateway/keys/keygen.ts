// `ddedge gateway keygen NAME [--algorithm ALG]`: a new TSIG key, printed exactly as BIND's
// tsig-keygen prints one, so the same text goes in the keys file and in the client's config.
import { randomBytes } from 'node:crypto';
import { ConfigError } from '../../lib/errors.js';
import { keyNameOf } from './keys-file.js';
import { TSIG_ALGORITHMS, type TsigAlgorithm } from '../../dns/wire/tsig.js';

const DEFAULT_ALGORITHM: TsigAlgorithm = 'hmac-sha256';

export function keygenText(name: string, algorithm: string = DEFAULT_ALGORITHM): string {
  const alg = algorithm.toLowerCase() as TsigAlgorithm;
  if (!(alg in TSIG_ALGORITHMS))
    throw new ConfigError(`--algorithm: "${algorithm}" is not one of ${Object.keys(TSIG_ALGORITHMS).join(', ')}`);
  const key = keyNameOf(name);
  if (!key || /["\\\s{};]/.test(key))
    throw new ConfigError(`keygen: "${name}" is not a key name (a DNS name such as acme.example.com)`);
  // As tsig-keygen: a secret as long as the hash's output.
  const secret = randomBytes(TSIG_ALGORITHMS[alg].bytes).toString('base64');
  return `key "${key}" {\n\talgorithm ${alg};\n\tsecret "${secret}";\n};\n`;
}
