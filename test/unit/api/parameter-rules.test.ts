// Each rule of the table, broken once: the call fails with a ValidationError that names the
// parameter, before anything is sent.
import { describe, expect, it } from 'vitest';
import { API } from '../../../src/api/endpoints/index.js';
import type { Endpoint } from '../../../src/api/endpoints/types.js';
import { toFormFields, type Params } from '../../../src/api/params.js';
import { prepareParams } from '../../../src/api/client.js';
import { ValidationError } from '../../../src/lib/errors.js';
import { sampleParams } from '../../helpers/sample-params.js';

const person = {
  type: 'individual',
  firstName: 'Ana',
  lastName: 'García',
  identNumber: '12345678Z',
  email: 'ana@example.com',
  phone: '+34.912345678',
  address: 'Calle Mayor 1',
  postalCode: '28001',
  city: 'Madrid',
  state: 'Madrid',
  country: 'ES',
};

function problems(endpoint: Endpoint, changes: Params, base?: Params): string {
  const params = { ...(base ?? sampleParams(endpoint.action, endpoint)), ...changes };
  for (const [k, v] of Object.entries(changes)) if (v === undefined) delete params[k];
  try {
    toFormFields(endpoint.action, endpoint.params, prepareParams(endpoint, params), endpoint.rules);
  } catch (error) {
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).exitCode).toBe(2);
    return (error as ValidationError).problems.join('\n');
  }
  throw new Error('expected a ValidationError');
}

describe('parameter rules', () => {
  it.each<[string, Endpoint, Params, RegExp, Params?]>([
    ['a required parameter', API.service.dnsCreate, { value: undefined }, /"value" is required/],
    ['a whole number', API.domain.create, { period: 'two' }, /"period" must be a whole number/],
    ['an enum', API.service.dnsCreate, { type: 'PTR' }, /"type" must be one of A, AAAA, CNAME, MX, SRV, TXT, NS, CAA/],
    ['a boolean', API.domain.create, { premium: 'maybe' }, /"premium" must be a boolean/],
    [
      'the phone format +DD.DDDDDDDD',
      API.contact.create,
      { Phone: '912345678' },
      /"Phone" must be a phone number as \+DD\.DDDDDDDD/,
    ],
    ['a 2-letter country', API.contact.create, { Country: 'Spain' }, /"Country" must be a 2-letter country code/],
    [
      'a YYYYMMDD or YYYY-MM-DD date',
      API.domain.renew,
      { curExpDate: '31/01/2027' },
      /"curExpDate" must be a date as YYYYMMDD or YYYY-MM-DD/,
    ],
    ['an e-mail', API.contact.create, { Email: 'not-an-email' }, /"Email" must be an e-mail address/],
    [
      '2 to 7 nameservers',
      API.domain.updateNameservers,
      { nameservers: 'ns1.example.net' },
      /"nameservers" must be default, or a comma-separated list of 2 to 7 items, got 1/,
    ],
    [
      'no more than 7 nameservers',
      API.domain.create,
      { nameservers: Array.from({ length: 8 }, (_, i) => `ns${i}.example.net`).join(',') },
      /2 to 7 items, got 8/,
    ],
    [
      'at least 2 zonecheck nameservers',
      API.tool.zoneCheck,
      { nameservers: 'ns1.example.net' },
      /"nameservers" must be a comma-separated list of 2/,
    ],
    ['an FTP quota of at least 1048576', API.service.ftpCreate, { quota: '1000' }, /"quota" must be at least 1048576/],
    [
      'one of domain or domainID',
      API.domain.getInfo,
      { domain: undefined, domainID: undefined },
      /one of "domain" or "domainID" is required/,
    ],
    [
      'PContactOrgName for organizations',
      API.domain.create,
      { owner: { ...person, type: 'organization', country: 'FR' } },
      /"ownerContactOrgName" is required when "ownerContactType" is organization/,
      { domain: 'example.com' },
    ],
    [
      'PContactOrgType for organizations in ES',
      API.domain.create,
      { owner: { ...person, type: 'organization', orgName: 'Ejemplo SL' } },
      /"ownerContactOrgType" is required for an organization in ES/,
      { domain: 'example.com' },
    ],
    [
      'the owner in create',
      API.domain.create,
      { ownerContactID: undefined },
      /"ownerContactID" or the contact's data is required: "ownerContactType", "ownerContactFirstName"/,
      { domain: 'example.com' },
    ],
    [
      'complete contact data',
      API.domain.updateContacts,
      { domain: 'example.com', adminContactFirstName: 'Ana' },
      /contact data incomplete: .*"adminContactLastName"/,
    ],
    [
      'OrgName in contact/create',
      API.contact.create,
      { Type: 'organization' },
      /"OrgName" is required when "Type" is organization/,
    ],
    [
      'sslKey, sslCertChain and sslPath with sslCert',
      API.service.subdomainCreate,
      { sslCert: '-----BEGIN CERTIFICATE-----' },
      /"sslKey" is required when sslCert is sent[\s\S]*"sslCertChain"[\s\S]*"sslPath"/,
    ],
    [
      'the value of an updateType',
      API.domain.update,
      { updateType: 'renewalMode' },
      /"renewalMode" is required when updateType is renewalMode/,
    ],
    [
      'xxxName for .xxx class default',
      API.domain.create,
      { xxxClass: 'default' },
      /"xxxName" is required when xxxClass is default/,
    ],
    [
      'xxxId for .xxx class membership',
      API.domain.create,
      { xxxClass: 'membership' },
      /"xxxId" is required when xxxClass is membership/,
    ],
    ['aeroPass with aeroId', API.domain.create, { aeroId: 'A1' }, /"aeroPass" is required with aeroId/],
    [
      'ru fields for an individual owner',
      API.domain.create,
      { owner: person, ruIssuer: 'MVD' },
      /"ruIssuerDate" is required for an individual .ru owner/,
      { domain: 'example.ru' },
    ],
    [
      'alternative names numbered from 1',
      API.ssl.create,
      { alt_name_2: 'www.example.com', alt_validation_2: 'dns' },
      /numbered from 1/,
    ],
    [
      'a validation method',
      API.ssl.create,
      { validationMethod: 'fax' },
      /"validationMethod" must be http, https, dns or an e-mail address/,
    ],
    [
      'the admin contact of a certificate',
      API.ssl.create,
      { adminContactEmail: undefined },
      /contact data incomplete: "adminContactEmail"/,
    ],
    ['dnsZoneData (or records)', API.service.dnsSetZone, { dnsZoneData: undefined }, /"dnsZoneData" is required/],
    ['a known parameter', API.tool.hello, { color: 'red' }, /unknown parameter "color"/],
    ['the pageLength minimum', API.domain.list, { pageLength: '0' }, /"pageLength" must be at least 1/],
  ])('%s', (_name, endpoint, changes, pattern, base) => {
    expect(problems(endpoint, changes, base)).toMatch(pattern);
  });

  it('names every offending parameter at once', () => {
    const text = problems(API.contact.create, { Phone: 'x', Country: 'spain', Email: 'y' });
    expect(text.split('\n')).toHaveLength(3);
  });
});

describe('helpers the spec implies', () => {
  it('flattens contact objects into owner…/admin… fields, and takes a contact ID as a string', () => {
    const fields = toFormFields(
      'domain/create',
      API.domain.create.params,
      prepareParams(API.domain.create, { domain: 'example.com', owner: person, admin: 'C-42' }),
      API.domain.create.rules,
    );
    expect(fields).toMatchObject({
      ownerContactType: 'individual',
      ownerContactFirstName: 'Ana',
      ownerContactPhone: '+34.912345678',
      ownerContactCountry: 'ES',
      adminContactID: 'C-42',
    });
  });
  it('flattens SSL contacts into adminContact… fields', () => {
    const params = prepareParams(API.ssl.create, {
      productID: 1,
      csrData: 'CSR',
      validationMethod: 'dns',
      adminContact: person,
    });
    expect(toFormFields('ssl/create', API.ssl.create.params, params, API.ssl.create.rules)).toMatchObject({
      adminContactFirstName: 'Ana',
      adminContactEmail: 'ana@example.com',
    });
  });
  it('sends booleans as 1 and 0', () => {
    expect(
      toFormFields('x', API.domain.create.params, { domain: 'example.com', premium: true, ownerContactID: 'C1' }),
    ).toMatchObject({ premium: '1' });
    expect(toFormFields('x', API.service.parkingUpdate.params, { serviceName: 's', enabled: 'off' })).toMatchObject({
      enabled: '0',
    });
  });
  it('encodes dnssetzone records as Base64 of JSON', () => {
    const params = prepareParams(API.service.dnsSetZone, {
      serviceName: 'example.com',
      records: [
        { name: 'www.example.com', type: 'A', value: '81.0.2.15' },
        { name: 'example.com', type: 'MX', value: 'mail.example.com', priority: 10 },
      ],
    });
    const fields = toFormFields(
      'service/dnssetzone',
      API.service.dnsSetZone.params,
      params,
      API.service.dnsSetZone.rules,
    );
    expect(JSON.parse(Buffer.from(fields.dnsZoneData!, 'base64').toString())).toEqual([
      { name: 'www.example.com', type: 'A', ttl: '', priority: '', value: '81.0.2.15' },
      { name: 'example.com', type: 'MX', ttl: '', priority: 10, value: 'mail.example.com' },
    ]);
  });
  it('accepts the TLD extras of create and transfer', () => {
    const fields = toFormFields(
      'domain/create',
      API.domain.create.params,
      {
        domain: 'example.jobs',
        ownerContactID: 'C1',
        jobsOwnerWebsite: 'https://example.jobs',
        jobsOwnerIsAssocMember: true,
        xxxClass: 'nonResolver',
      },
      API.domain.create.rules,
    );
    expect(fields).toMatchObject({
      jobsOwnerWebsite: 'https://example.jobs',
      jobsOwnerIsAssocMember: '1',
      xxxClass: 'nonResolver',
    });
    expect('jobsAdminTitle' in API.domain.transfer.params && 'ruIssuer' in API.domain.transfer.params).toBe(true);
  });
});
