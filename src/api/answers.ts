// One reader per answer type, applied where an answer enters the client: every list
// operation's list and queryInfo are checked, and the answers the agent acts on (the zone it
// edits, the caller address it publishes) are read field by field. An answer without the
// documented shape is malformed (exit 4); it is never read as an empty zone, from which the
// agent would create a second record. The next hostile shape is one line here.
import {
  AnswerShapeError,
  isFields,
  readFields,
  readList,
  readOptionalText,
  readText,
  type Fields,
} from '../lib/answer-shape.js';
import { familyOfAddress } from '../lib/address.js';
import type { Endpoint } from './endpoints/types.js';

type Reader = (data: Fields, xml: boolean) => Fields;

const READERS: Record<string, Reader> = {
  'service/dnslist': (data, xml) => ({
    ...data,
    dns: readList(data.dns, 'responseData.dns', xml).map(plainOrReadDnsEntry),
  }),
  // The agent publishes this address (the `server` source): it must be one.
  'tool/hello': (data) => ({ ...data, ip: readAddress(data.ip, 'responseData.ip') }),
};

export function readResponseData(operation: string, endpoint: Endpoint, data: unknown, xml: boolean): unknown {
  const reader = READERS[operation];
  if (!endpoint.listKey && !reader) return data;
  const fields = { ...readFields(data, 'responseData') };
  if (endpoint.listKey) {
    fields[endpoint.listKey] = readList(fields[endpoint.listKey], `responseData.${endpoint.listKey}`, xml);
    if (fields.queryInfo !== undefined) fields.queryInfo = readQueryInfo(fields.queryInfo, xml);
  }
  return reader ? reader(fields, xml) : fields;
}

/** The common entry, every field already text, as it is; any other through readDnsEntry (paths made only then). */
function plainOrReadDnsEntry(value: unknown, index: number): Fields {
  if (isFields(value)) {
    const { entityID, name, type, value: data, ttl, priority } = value;
    const text = (v: unknown) => typeof v === 'string';
    if (
      text(entityID) &&
      entityID !== '' &&
      text(name) &&
      text(type) &&
      text(data) &&
      (ttl === undefined || text(ttl)) &&
      (priority === undefined || text(priority))
    )
      return value;
  }
  return readDnsEntry(value, `responseData.dns[${index}]`);
}

function readDnsEntry(value: unknown, path: string): Fields {
  const entry = readFields(value, path);
  const entityID = readOptionalText(entry.entityID, `${path}.entityID`);
  if (!entityID) throw new AnswerShapeError(`${path} has no entityID`);
  return {
    ...entry,
    entityID,
    name: readText(entry.name, `${path}.name`),
    type: readText(entry.type, `${path}.type`),
    value: readText(entry.value, `${path}.value`),
    ...(entry.ttl !== undefined ? { ttl: readText(entry.ttl, `${path}.ttl`) } : {}),
    ...(entry.priority !== undefined ? { priority: readText(entry.priority, `${path}.priority`) } : {}),
  };
}

function readAddress(value: unknown, path: string): string {
  const text = readText(value, path);
  if (!familyOfAddress(text)) throw new AnswerShapeError(`${path} is not an IP address`);
  return text;
}

const COUNTS = ['page', 'pageLength', 'results', 'total'] as const;

function readQueryInfo(value: unknown, xml: boolean): Fields {
  if (xml && value === '') return {};
  const info = { ...readFields(value, 'responseData.queryInfo') };
  for (const name of COUNTS) {
    const count = info[name];
    if (xml && count === '') delete info[name];
    if (info[name] === undefined) continue;
    if (typeof count !== 'number' || !Number.isSafeInteger(count) || count < 0) {
      throw new AnswerShapeError(`responseData.queryInfo.${name} is not a whole number`);
    }
  }
  return info;
}
