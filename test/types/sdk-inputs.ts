// Type test, compiled by `tsc --noEmit` in `npm test` (never run): every `@ts-expect-error`
// line must fail to compile, or tsc reports the directive as unused and the run fails. The
// SDK's inputs are typed the same way everywhere: unknown and misspelt names do not compile,
// and a contact is given in one shape (ContactInput, the camelCase object) wherever one is taken.
import { Registrar, type ContactInput } from '../../src/sdk/index.js';

declare const registrar: Registrar;
const person: ContactInput = {
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

export async function typeTests(): Promise<void> {
  // contact.create takes the contact itself, as domain.create's owner and ssl.create's adminContact.
  await registrar.contact.create(person);
  // @ts-expect-error: an unknown name
  await registrar.contact.create({ bogus: 1 });
  // @ts-expect-error: an unknown name beside a complete contact
  await registrar.contact.create({ ...person, bogus: 1 });
  // @ts-expect-error: the API's own field names are not a second shape
  await registrar.contact.create({ Type: 'individual', FirstName: 'Ana', LastName: 'García', IdentNumber: '1', Email: 'a@b.es', Phone: '+34.1', Address: 'x', PostalCode: '1', City: 'x', State: 'x', Country: 'ES' });
  // @ts-expect-error: a required field missing
  await registrar.contact.create({ ...person, email: undefined });

  await registrar.domain.create({ domain: 'example.com', owner: person, admin: 'C-42' });
  // @ts-expect-error: a misspelt contact field
  await registrar.domain.create({ domain: 'example.com', ownerContactFirstNam: 'Ana' });
  // @ts-expect-error: the field-by-field form is not a second shape either
  await registrar.domain.create({ domain: 'example.com', ownerContactFirstName: 'Ana' });
  // @ts-expect-error: nor the ID field (owner: 'C-42' is)
  await registrar.domain.create({ domain: 'example.com', ownerContactID: 'C-42' });
  // @ts-expect-error: a contact object with a misspelt field
  await registrar.domain.create({ domain: 'example.com', owner: { ...person, firstNam: 'Ana' } });
  // @ts-expect-error: an unknown role
  await registrar.domain.create({ domain: 'example.com', registrant: person });
  // @ts-expect-error: an unknown parameter of domain.create
  await registrar.domain.create({ domain: 'example.com', owner: person, bogus: 1 });
  await registrar.domain.updateContacts({ domain: 'example.com', tech: person });
  // @ts-expect-error: SSL roles are not domain roles
  await registrar.domain.updateContacts({ domain: 'example.com', adminContact: person });

  await registrar.ssl.create({ productID: 1, csrData: 'CSR', validationMethod: 'dns', adminContact: person, alt_name_1: 'www.example.com', alt_validation_1: 'dns' });
  // @ts-expect-error: the SSL contact by its fields
  await registrar.ssl.create({ productID: 1, csrData: 'CSR', validationMethod: 'dns', adminContactFirstName: 'Ana' });
  // @ts-expect-error: SSL contacts are objects, not IDs
  await registrar.ssl.renew({ certificateID: 1, productID: 1, csrData: 'CSR', validationMethod: 'dns', adminContact: 'C-42' });
  // @ts-expect-error: a misspelt alternative name
  await registrar.ssl.create({ productID: 1, csrData: 'CSR', validationMethod: 'dns', adminContact: person, alt_nam_1: 'www.example.com' });

  await registrar.service.ftpCreate({ serviceName: 'example.com', name: 'deploy', ftpPath: '/', password: 'pw', quota: 1_048_576 });
  // @ts-expect-error: the service entities are typed too
  await registrar.service.ftpCreate({ serviceName: 'example.com', name: 'deploy', ftpPath: '/', password: 'pw', quota: 1_048_576, bogus: 1 });
  await registrar.service.dnsSetZone({ serviceName: 'example.com', records: [{ name: 'www.example.com', type: 'A', value: '81.0.2.15' }] });
  // @ts-expect-error: records belong to dnssetzone only
  await registrar.domain.getInfo({ domain: 'example.com', records: [] });
}
