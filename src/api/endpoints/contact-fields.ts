// Contact data: the same 14 fields with a role prefix in domain operations
// (ownerContactFirstName…), an SSL prefix in certificate operations (adminContactFirstName…),
// and none in contact/create (FirstName…). Given by ID or by full data.
import { formats, oneOf, str, type Params, type ParamSpec, type Rule } from '../params.js';

const CONTACT_TYPES = ['individual', 'organization'] as const;

/** A contact as the SDK takes it; flattened into the API's prefixed fields. */
export interface ContactInput {
  type: (typeof CONTACT_TYPES)[number];
  firstName: string;
  lastName: string;
  /** Required for organizations. */
  orgName?: string;
  /** Spanish organization type (table es_juridic); required for organizations in ES. */
  orgType?: string | number;
  identNumber: string;
  email: string;
  /** +DD.DDDDDDDD */
  phone: string;
  fax?: string;
  address: string;
  postalCode: string;
  city: string;
  state: string;
  /** 2-letter country code. */
  country: string;
}

const FIELDS: Record<keyof ContactInput, { spec: ParamSpec; required: boolean }> = {
  type: { spec: oneOf(CONTACT_TYPES), required: true },
  firstName: { spec: str('first name'), required: true },
  lastName: { spec: str('last name'), required: true },
  orgName: { spec: str('organization name (required for organizations)'), required: false },
  orgType: { spec: str('Spanish organization type code, table es_juridic (organizations in ES)'), required: false },
  identNumber: { spec: str('tax ID, VAT number or passport'), required: true },
  email: { spec: str('e-mail', formats.email), required: true },
  phone: { spec: str('+DD.DDDDDDDD', formats.phone), required: true },
  fax: { spec: str('+DD.DDDDDDDD', formats.phone), required: false },
  address: { spec: str(), required: true },
  postalCode: { spec: str(), required: true },
  city: { spec: str(), required: true },
  state: { spec: str('state or province'), required: true },
  country: { spec: str('2-letter country code', formats.country), required: true },
};
const KEYS = Object.keys(FIELDS) as (keyof ContactInput)[];
const capital = (s: string) => s[0]!.toUpperCase() + s.slice(1);
const fieldName = (prefix: string, key: string) => `${prefix}${capital(key)}`;

/** The API's name of a contact field: `<prefix><Field>` (ownerContactFirstName, FirstName). */
type ContactFieldName<Prefix extends string> = `${Prefix}${Capitalize<keyof ContactInput>}`;
/** A contact's parameters, by name, so that the SDK's types know every one of them. */
export type ContactParams<Prefix extends string, WithId extends boolean> = {
  [K in ContactFieldName<Prefix>]: ParamSpec<string>;
} & (WithId extends true ? { [K in `${Prefix}ID`]: ParamSpec<string> } : unknown);

/** The parameters of one contact: `<prefix>ID` (unless bare) and the 14 data fields. */
export function contactParams<const Prefix extends string, WithId extends boolean = true>(
  prefix: Prefix,
  withId: WithId = true as WithId,
): ContactParams<Prefix, WithId> {
  const params: Record<string, ParamSpec> = {};
  if (withId) params[`${prefix}ID`] = str('existing contact ID (instead of the data fields)');
  for (const key of KEYS)
    params[fieldName(prefix, key)] = {
      ...FIELDS[key].spec,
      required: !withId && FIELDS[key].required ? true : undefined,
    };
  return params as ContactParams<Prefix, WithId>;
}

/** contact/create's bare fields (FirstName…) from the camelCase contact the SDK takes everywhere. */
export function contactFromInput(params: Params): Params {
  const out: Params = {};
  for (const [key, value] of Object.entries(params))
    out[(KEYS as string[]).includes(key) ? fieldName('', key) : key] = value;
  return out;
}

const given = (p: Params, name: string) => p[name] !== undefined && p[name] !== null && p[name] !== '';

/**
 * The rules of one contact: with full data (no ID), every required field; OrgName for
 * organizations; OrgType for organizations in ES. `mandatory`: the contact must be given.
 */
export function contactRules(prefix: string, mandatory: boolean, withId = true): Rule[] {
  const idName = `${prefix}ID`;
  const dataGiven = (p: Params) => KEYS.some((k) => given(p, fieldName(prefix, k)));
  const usesData = (p: Params) => !(withId && given(p, idName)) && (mandatory || dataGiven(p));
  const rules: Rule[] = [
    {
      describe: `${prefix || 'contact'}: ${withId ? 'an ID or ' : ''}the full data${mandatory ? ' (required)' : ''}`,
      check: (p) => {
        if (!usesData(p)) return undefined;
        const missing = KEYS.filter((k) => FIELDS[k].required && !given(p, fieldName(prefix, k))).map((k) =>
          fieldName(prefix, k),
        );
        if (!missing.length) return undefined;
        const list = missing.map((m) => `"${m}"`).join(', ');
        if (mandatory && !dataGiven(p))
          return `${withId ? `"${idName}" or ` : ''}the contact's data is required: ${list}`;
        return `contact data incomplete: ${list} required`;
      },
    },
  ];
  const type = fieldName(prefix, 'type');
  rules.push({
    describe: `${fieldName(prefix, 'orgName')} is required when ${type} is organization`,
    check: (p) =>
      usesData(p) && p[type] === 'organization' && !given(p, fieldName(prefix, 'orgName'))
        ? `"${fieldName(prefix, 'orgName')}" is required when "${type}" is organization`
        : undefined,
  });
  rules.push({
    describe: `${fieldName(prefix, 'orgType')} is required for organizations in ES`,
    check: (p) =>
      usesData(p) &&
      p[type] === 'organization' &&
      p[fieldName(prefix, 'country')] === 'ES' &&
      !given(p, fieldName(prefix, 'orgType'))
        ? `"${fieldName(prefix, 'orgType')}" is required for an organization in ES (table es_juridic)`
        : undefined,
  });
  return rules;
}

/** Replaces `<role>: ContactInput | contactID` in SDK params by the API's fields. */
export function flattenContacts(params: Params, roles: readonly string[], prefixOf: (role: string) => string): Params {
  const out: Params = { ...params };
  for (const role of roles) {
    const value = out[role];
    if (value === undefined) continue;
    delete out[role];
    const prefix = prefixOf(role);
    if (typeof value === 'string') out[`${prefix}ID`] = value;
    else if (typeof value === 'object' && value !== null) {
      for (const [key, v] of Object.entries(value as Record<string, unknown>)) out[fieldName(prefix, key)] = v;
    }
  }
  return out;
}
