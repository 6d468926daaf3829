// The SDK against the sandbox over real HTTP: every one of the 99 operations, typed results
// checked, and at least one error answer per module. The sandbox counts the calls, so a
// missing operation fails the last test.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operations } from '../../../src/api/endpoints/index.js';
import { ApiError, Registrar } from '../../../src/sdk/index.js';
import { sandboxRegistrar } from '../../helpers/sandbox-sdk.js';
import { useSandbox } from '../../helpers/use-sandbox.js';

const sandbox = useSandbox({ per: 'file' });
let api: Registrar;
beforeAll(async () => {
  api = sandboxRegistrar(sandbox);
});
afterAll(async () => {
  await api.close();
});

const person = {
  type: 'individual' as const,
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
const apiError = (promise: Promise<unknown>) =>
  promise.then(
    () => {
      throw new Error('expected an ApiError');
    },
    (e: unknown) => {
      expect(e).toBeInstanceOf(ApiError);
      return e as ApiError;
    },
  );

describe('tool', () => {
  it('all 6 operations', async () => {
    expect(await api.tool.hello()).toEqual({ ip: '127.0.0.1', lang: 'en', version: '1.0.26' });
    expect(await api.tool.idnConverter({ query: 'españa.com' })).toEqual({
      query: 'españa.com',
      unicode: 'españa.com',
      punycode: 'xn--espaa-rta.com',
    });
    expect((await api.tool.domainSuggests({ query: 'coffee', tlds: 'com,net' })).suggests.coffee).toEqual({
      com: true,
      net: true,
    });
    expect((await api.tool.getTable({ tableType: 'countries' })).items).toContainEqual({ code: 'ES', name: 'Spain' });
    expect(
      (await api.tool.dig({ query: 'example.com', type: 'A', nameserver: 'ns1.dondominio.com' })).result,
    ).toContain('192.0.2.10');
    expect(
      (await api.tool.zoneCheck({ domain: 'example.com', nameservers: 'ns1.dondominio.com,ns2.dondominio.com' })).result
        .zonepass,
    ).toBe(true);
    expect(
      (await apiError(api.tool.zoneCheck({ domain: 'unknown.com', nameservers: 'a.example.net,b.example.net' })))
        .errorCode,
    ).toBe(2008);
  });
});

describe('account', () => {
  it('all 3 operations', async () => {
    const info = await api.account.info();
    expect(info).toMatchObject({
      clientName: 'Demo Client SL',
      apiuser: 'demo-user',
      currency: 'EUR',
      ip: '127.0.0.1',
    });
    expect(typeof info.balance).toBe('number');
    expect((await api.account.promos())[0]).toMatchObject({ type: 'domain', tld: 'es' });
    const zones = await api.account.zones({ tld: 'es' });
    expect(zones.queryInfo.pageLength).toBe(100);
    expect(zones.zones[0]).toMatchObject({ tld: 'es', authcodereq: false, create: { price: 7, inPromo: true } });
    const wrong = new Registrar({ url: sandbox.url, user: 'demo-user', password: 'wrong-password' });
    expect(await apiError(wrong.account.info())).toMatchObject({ errorCode: 1004, kind: 'auth', exitCode: 3 });
    await wrong.close();
  });
});

describe('contact', () => {
  it('all 4 operations', async () => {
    const created = await api.contact.create({
      type: 'individual',
      firstName: 'Luis',
      lastName: 'Pérez',
      identNumber: '87654321X',
      email: 'luis@example.com',
      phone: '+34.600000000',
      address: 'Gran Vía 2',
      postalCode: '28013',
      city: 'Madrid',
      state: 'Madrid',
      country: 'ES',
    });
    expect(created).toMatchObject({ contactType: 'individual', firstName: 'Luis', verificationstatus: 'inprocess' });
    const list = await api.contact.list({ name: 'Luis' });
    expect(list.contacts.map((c) => c.contactID)).toEqual([created.contactID]);
    expect((await api.contact.getInfo({ contactID: created.contactID })).email).toBe('luis@example.com');
    expect((await api.contact.resendVerificationMail({ contactID: created.contactID })).contactID).toBe(
      created.contactID,
    );
    expect((await apiError(api.contact.getInfo({ contactID: 'C-NOPE' }))).errorCode).toBe(3001);
    expect((await apiError(api.contact.resendVerificationMail({ contactID: 'DEMO-1' }))).errorCode).toBe(3003);
  });
});

describe('domain', () => {
  it('all 26 operations, with the transitions of the spec', async () => {
    const balance = (await api.account.info()).balance;
    expect((await api.domain.check({ domain: 'newdomain.com' })).domains[0]).toMatchObject({
      available: true,
      premium: false,
      price: 11.5,
    });
    expect((await api.domain.checkForTransfer({ domain: 'example-taken.com' })).domains[0]).toMatchObject({
      transferavail: true,
    });

    const created = await api.domain.create({
      domain: 'newdomain.com',
      owner: person,
      nameservers: 'ns1.example.net,ns2.example.net',
    });
    expect(created).toMatchObject({
      billing: { total: 11.5, currency: 'EUR' },
      domains: [{ name: 'newdomain.com', status: 'register-init', tsExpir: '' }],
    });
    expect((await api.account.info()).balance).toBe(balance - 11.5);

    const transfer = await api.domain.transfer({ domain: 'example-taken.com', authcode: 'AUTH', owner: 'DEMO-1' });
    expect(transfer.domains[0]).toMatchObject({ status: 'transfer-init' });
    expect((await api.domain.transferRestart({ domain: 'example-taken.com', authcode: 'NEW' })).messages).toEqual([
      'Transfer restarted',
    ]);
    await api.domain.resendFoaMail({ domain: 'example-taken.com' });
    expect(await api.domain.resetFoa({ domain: 'example-taken.com' })).toMatchObject({ status: 'transfer-init' });
    expect((await api.domain.getInfo({ domain: 'example-taken.com' })).transferStatus).toBe('pending-foa');
    // resetfoa only during a transfer
    expect((await apiError(api.domain.resetFoa({ domain: 'example.com' }))).errorCode).toBe(2201);

    await api.domain.update({ domain: 'example.com', updateType: 'tag', tag: 'prod,web' });
    await api.domain.updateNameservers({ domain: 'example.com', nameservers: 'ns1.example.net,ns2.example.net' });
    await api.domain.updateContacts({ domain: 'example.com', admin: person });
    expect(
      (await api.domain.glueRecordCreate({ domain: 'example.com', name: 'ns1.example.com', ipv4: '81.0.2.53' }))
        .gluerecords,
    ).toEqual([{ name: 'ns1.example.com', ipv4: '81.0.2.53' }]);
    expect(
      (
        await api.domain.glueRecordUpdate({
          domain: 'example.com',
          name: 'ns1.example.com',
          ipv4: '81.0.2.54',
          ipv6: '2a00:1450::53',
        })
      ).gluerecords[0],
    ).toMatchObject({ ipv4: '81.0.2.54', ipv6: '2a00:1450::53' });
    expect((await api.domain.getGlueRecords({ domain: 'example.com' })).gluerecords).toHaveLength(1);
    expect((await api.domain.glueRecordDelete({ domain: 'example.com', name: 'ns1.example.com' })).gluerecords).toEqual(
      [],
    );
    expect(
      (
        await api.domain.dnssecCreate({
          domain: 'example.com',
          keytag: 12345,
          algorithm: 13,
          digesttype: 2,
          digest: 'ABCDEF',
        })
      ).dnssec,
    ).toEqual({ active: true, entries: [{ keytag: 12345, algorithm: 13, digesttype: 2, digest: 'ABCDEF' }] });
    expect((await api.domain.getDnssec({ domain: 'example.com' })).dnssec.active).toBe(true);
    expect(
      (
        await api.domain.dnssecDelete({
          domain: 'example.com',
          keytag: 12345,
          algorithm: 13,
          digesttype: 2,
          digest: 'ABCDEF',
        })
      ).dnssec.active,
    ).toBe(false);

    const info = await api.domain.getInfo({ domain: 'example.com' });
    expect(info).toMatchObject({
      name: 'example.com',
      status: 'active',
      tag: 'prod,web',
      renewable: true,
      modifyBlock: false,
    });
    expect((await api.domain.getInfo({ domainID: info.domainID, infoType: 'contact' })).contactAdmin).toMatchObject({
      firstName: 'Ana',
    });
    expect((await api.domain.getNameservers({ domain: 'example.com' })).nameservers.map((n) => n.name)).toEqual([
      'ns1.example.net',
      'ns2.example.net',
    ]);
    expect((await api.domain.getAuthcode({ domain: 'example.com' })).authcode).toMatch(/^AUTH-/);
    expect((await api.domain.list({ tld: 'com' })).domains.map((d) => d.name)).toEqual(
      expect.arrayContaining(['example.com', 'newdomain.com']),
    );
    expect((await api.domain.whois({ domain: 'example.com' })).whoisData).toContain('EXAMPLE.COM');
    expect((await api.domain.getHistory({ domain: 'example.com' })).history.map((h) => h.title)).toEqual(
      expect.arrayContaining(['update', 'gluerecord']),
    );
    expect((await api.domain.listDeleted()).domains[0]).toMatchObject({ name: 'old-example.com' });

    const renewed = await api.domain.renew({
      domain: 'example.com',
      curExpDate: info.tsExpir.replaceAll('-', ''),
      period: 2,
    });
    expect(renewed.domains[0]).toMatchObject({
      status: 'renewed',
      renewPeriod: 2,
      tsExpir: `${Number(info.tsExpir.slice(0, 4)) + 2}${info.tsExpir.slice(4)}`,
    });
    expect((await apiError(api.domain.renew({ domain: 'example.net', curExpDate: '2000-01-01' }))).errorCode).toBe(
      2100,
    );

    expect((await api.domain.resendVerificationMail({ domain: 'newdomain.com' })).messages).toEqual([
      'Verification mail sent',
    ]);
    // The modification lock refuses changes until it is lifted.
    await api.domain.update({ domain: 'example.net', updateType: 'block', block: true });
    expect(
      (await apiError(api.domain.updateNameservers({ domain: 'example.net', nameservers: 'default' }))).errorCode,
    ).toBe(2202);
    await api.domain.update({ domain: 'example.net', updateType: 'block', block: false });

    expect(await apiError(api.domain.getInfo({ domain: 'nope.com' }))).toMatchObject({
      errorCode: 2008,
      kind: 'not-found',
      exitCode: 7,
    });
    expect((await apiError(api.domain.create({ domain: 'google.com', owner: 'DEMO-1' }))).errorCode).toBe(2010);
    expect((await apiError(api.domain.create({ domain: 'premiumcars.com', owner: 'DEMO-1' }))).errorCode).toBe(2011);
  });
});

describe('service', () => {
  it('all 47 operations', async () => {
    expect((await api.service.list()).services.map((s) => s.name)).toEqual(['example.com', 'example.net']);
    expect((await api.service.getInfo({ serviceName: 'example.com', infoType: 'resources' })).resources?.ftp).toEqual({
      value: 0,
      max: 3,
      unit: '',
    });
    expect(await api.service.create({ serviceName: 'newsite.com', productkey: 'mini' })).toMatchObject({
      billing: { total: 19 },
      services: [{ name: 'newsite.com', status: 'active', productkey: 'mini' }],
    });
    expect((await api.service.renew({ serviceName: 'newsite.com' })).services[0]!.status).toBe('renewed');
    expect(
      (await api.service.upgrade({ serviceName: 'newsite.com', productkey: 'basic' })).services[0]!.productkey,
    ).toBe('basic');
    expect((await apiError(api.service.upgrade({ serviceName: 'newsite.com', productkey: 'mini' }))).errorCode).toBe(
      4008,
    );
    expect(
      (await api.service.update({ serviceName: 'newsite.com', updateType: 'phpversion', phpversion: '8.3' })).php
        ?.version,
    ).toBe('8.3');
    expect((await api.service.parkingGetInfo({ serviceName: 'example.net' })).parking.enabled).toBe(true);
    expect((await api.service.parkingUpdate({ serviceName: 'example.net', enabled: false })).parking.enabled).toBe(
      false,
    );
    expect(
      (await api.service.webConstructorLogin({ serviceName: 'example.com', subdomain: 'www' })).webconstructor.loginURL,
    ).toMatch(/^https:/);

    const s = { serviceName: 'example.com' };
    const ftp = (
      await api.service.ftpCreate({ ...s, name: 'deploy', ftpPath: '/public', password: 'pw-1', quota: 1_048_576 })
    ).ftp[0]!;
    expect((await api.service.ftpList(s)).ftp.map((f) => f.name)).toEqual(['deploy']);
    expect(
      (
        await api.service.ftpUpdate({
          ...s,
          entityID: ftp.entityID,
          ftpPath: '/www',
          password: 'pw-2',
          quota: 2_097_152,
        })
      ).ftp[0],
    ).toMatchObject({ ftpPath: '/www', quota: 2_097_152 });
    expect((await api.service.ftpGetInfo({ ...s, entityID: ftp.entityID })).ftp[0]!.name).toBe('deploy');
    await api.service.ftpDelete({ ...s, entityID: ftp.entityID });
    expect((await apiError(api.service.ftpGetInfo({ ...s, entityID: ftp.entityID }))).errorCode).toBe(4002);

    const db = (await api.service.ddbbCreate({ ...s, password: 'db-pw' })).ddbb[0]!;
    expect(
      (await api.service.ddbbUpdate({ ...s, entityID: db.entityID, password: 'db-pw2', externalAccess: true })).ddbb[0]!
        .externalAccess,
    ).toBe(true);
    expect((await api.service.ddbbGetInfo({ ...s, entityID: db.entityID })).ddbb[0]!.user).toBeTruthy();
    expect((await api.service.ddbbList(s)).ddbb).toHaveLength(1);
    await api.service.ddbbDelete({ ...s, entityID: db.entityID });

    const sub = (await api.service.subdomainCreate({ ...s, name: 'blog', ftpPath: '/blog' })).subdomain[0]!;
    expect(sub.name).toBe('blog.example.com');
    expect(
      (
        await api.service.subdomainUpdate({
          ...s,
          entityID: sub.entityID,
          ftpPath: '/b',
          sslCert: 'CERT',
          sslKey: 'KEY',
          sslCertChain: 'CHAIN',
          sslPath: '/ssl',
        })
      ).subdomain[0]!.ssl,
    ).toMatchObject({ sslCert: 'CERT' });
    expect((await api.service.subdomainGetInfo({ ...s, entityID: sub.entityID })).subdomain[0]!.ftpPath).toBe('/b');
    expect((await api.service.subdomainList({ ...s, filter: 'blog' })).subdomain).toHaveLength(1);
    await api.service.subdomainDelete({ ...s, entityID: sub.entityID });

    const redirect = (
      await api.service.redirectCreate({
        ...s,
        origin: 'old.example.com',
        destination: 'https://example.com',
        type: '301',
      })
    ).redirect[0]!;
    expect(
      (
        await api.service.redirectUpdate({
          ...s,
          entityID: redirect.entityID,
          destination: 'https://www.example.com',
          type: '302',
        })
      ).redirect[0]!.type,
    ).toBe('302');
    expect((await api.service.redirectGetInfo({ ...s, entityID: redirect.entityID })).redirect[0]!.origin).toBe(
      'old.example.com',
    );
    expect((await api.service.redirectList(s)).redirect).toHaveLength(1);
    await api.service.redirectDelete({ ...s, entityID: redirect.entityID });

    const mail = (await api.service.mailCreate({ ...s, name: 'info', password: 'mail-pw' })).mail[0]!;
    expect(mail).toMatchObject({ name: 'info@example.com', password: '********' });
    await api.service.mailUpdate({ ...s, entityID: mail.entityID, password: 'mail-pw2' });
    expect((await api.service.mailGetInfo({ ...s, entityID: mail.entityID })).mail[0]!.quotaMax).toBeGreaterThan(0);
    expect((await api.service.mailList(s)).mail).toHaveLength(1);
    await api.service.mailDelete({ ...s, entityID: mail.entityID });

    const alias = (
      await api.service.mailaliasCreate({ ...s, name: 'sales', target: 'ana@example.com,luis@example.com' })
    ).mailalias[0]!;
    expect(alias.target).toEqual(['ana@example.com', 'luis@example.com']);
    expect(
      (await api.service.mailaliasUpdate({ ...s, entityID: alias.entityID, target: 'ana@example.com' })).mailalias[0]!
        .target,
    ).toEqual(['ana@example.com']);
    expect((await api.service.mailaliasGetInfo({ ...s, entityID: alias.entityID })).mailalias[0]!.name).toBe(
      'sales@example.com',
    );
    expect((await api.service.mailaliasList(s)).mailalias).toHaveLength(1);
    await api.service.mailaliasDelete({ ...s, entityID: alias.entityID });

    const entry = (await api.service.dnsCreate({ ...s, name: 'mx2', type: 'MX', value: 'mx2.example.com' })).dns[0]!;
    expect(entry).toMatchObject({ name: 'mx2.example.com', type: 'MX', priority: '10' });
    expect(
      (await api.service.dnsUpdate({ ...s, entityID: entry.entityID, value: 'mx3.example.com', priority: 20 })).dns[0],
    ).toMatchObject({ value: 'mx3.example.com', priority: '20' });
    expect((await api.service.dnsGetInfo({ ...s, entityID: entry.entityID })).dns[0]!.value).toBe('mx3.example.com');
    await api.service.dnsDelete({ ...s, entityID: entry.entityID });
    expect((await api.service.dnsList({ ...s, filterType: 'MX' })).dns.map((e) => e.value)).toEqual([
      'mail.example.com',
    ]);
    await api.service.dnsSetZone({
      serviceName: 'newsite.com',
      records: [
        { name: 'newsite.com', type: 'A', value: '81.0.2.90' },
        { name: 'www', type: 'CNAME', value: 'newsite.com' },
      ],
    });
    expect(
      (await api.service.dnsList({ serviceName: 'newsite.com' })).dns.map((e) => `${e.name} ${e.type} ${e.value}`),
    ).toEqual(['newsite.com A 81.0.2.90', 'www.newsite.com CNAME newsite.com']);
    await api.service.dnsDeleteAll({ serviceName: 'newsite.com' });
    expect((await api.service.dnsList({ serviceName: 'newsite.com' })).dns).toEqual([]);
    await api.service.dnsRestore({ serviceName: 'newsite.com' });
    expect((await api.service.dnsList({ serviceName: 'newsite.com' })).dns.length).toBeGreaterThan(0);

    expect(await apiError(api.service.getInfo({ serviceName: 'nope.com' }))).toMatchObject({
      errorCode: 4001,
      kind: 'not-found',
    });
    expect((await apiError(api.service.dnsCreate({ ...s, name: 'bad', type: 'A', value: '2a00::1' }))).errorCode).toBe(
      105,
    );
    // The redirection plan holds no FTP account: entity limit.
    expect(
      (
        await apiError(
          api.service.ftpCreate({
            serviceName: 'example.net',
            name: 'x',
            ftpPath: '/',
            password: 'p',
            quota: 1_048_576,
          }),
        )
      ).errorCode,
    ).toBe(4003);
  });
});

describe('ssl', () => {
  it('all 13 operations', async () => {
    const subject = {
      commonName: 'shop.example.com',
      organizationName: 'Demo SL',
      organizationalUnitName: 'IT',
      countryName: 'ES',
      stateOrProvinceName: 'Madrid',
      localityName: 'Madrid',
      emailAddress: 'it@example.com',
    };
    const csr = await api.ssl.csrCreate(subject);
    expect(csr.csrData).toMatch(/^-----BEGIN CERTIFICATE REQUEST-----/);
    expect(csr.csrKey).toMatch(/BEGIN PRIVATE KEY/);
    expect(await api.ssl.csrDecode({ csrData: csr.csrData })).toMatchObject(subject);
    expect((await api.ssl.productList({ multidomain: true })).products.map((p) => p.productID)).toEqual([3]);
    expect((await api.ssl.productGetInfo({ productID: 1 })).productName).toBe('RapidSSL');

    const {
      ssl: { certificateID },
    } = await api.ssl.create({ productID: 1, csrData: csr.csrData, validationMethod: 'dns', adminContact: person });
    expect((await api.ssl.list()).ssl.map((c) => c.certificateID)).toContain(certificateID);
    expect(await api.ssl.getInfo({ certificateID })).toMatchObject({
      status: 'process',
      commonName: 'shop.example.com',
    });
    expect(
      (await api.ssl.getValidationEmails({ commonName: 'shop.example.com', includeAlternativeMethods: true }))
        .valMethods,
    ).toContain('admin@example.com');
    expect(
      (
        await api.ssl.changeValidationMethod({
          certificateID,
          commonName: 'shop.example.com',
          validationMethod: 'http',
        })
      ).messages,
    ).toEqual(['Validation method changed']);
    expect(
      (await api.ssl.getInfo({ certificateID, infoType: 'validationStatus' })).validationData?.dcv['shop.example.com'],
    ).toMatchObject({ method: 'http', validated: false });
    await api.ssl.resendValidationMail({ certificateID, commonName: 'shop.example.com' });
    // reissue only while valid: the CA has not issued it yet.
    expect(
      (await apiError(api.ssl.reissue({ certificateID, csrData: csr.csrData, validationMethod: 'dns' }))).errorCode,
    ).toBe(5000);
    sandbox.model.certificates.find((c) => c.certificateID === certificateID)!.status = 'valid';
    expect((await api.ssl.getInfo({ certificateID, infoType: 'pem' })).content).toMatchObject({
      type: 'pem',
      base64encoded: true,
    });
    expect(
      (await api.ssl.reissue({ certificateID, csrData: csr.csrData, validationMethod: 'dns' })).ssl.certificateID,
    ).toBe(certificateID);
    expect(
      (
        await api.ssl.renew({
          certificateID,
          productID: 1,
          csrData: csr.csrData,
          validationMethod: 'dns',
          adminContact: person,
        })
      ).ssl.certificateID,
    ).toBe(certificateID);
    expect((await api.ssl.getInfo({ certificateID })).status).toBe('renew');

    const multi = await api.ssl.create({
      productID: 3,
      csrData: csr.csrData,
      validationMethod: 'dns',
      adminContact: person,
      alt_name_1: 'www.example.com',
      alt_validation_1: 'dns',
    });
    expect(
      (await api.ssl.multiDomainAddSan({ certificateID: multi.ssl.certificateID, extraSAN: 2 })).ssl.certificateID,
    ).toBe(multi.ssl.certificateID);

    expect(await apiError(api.ssl.getInfo({ certificateID: 999_999 }))).toMatchObject({
      errorCode: 5001,
      kind: 'not-found',
    });
    expect(
      (
        await apiError(
          api.ssl.csrDecode({
            csrData: '-----BEGIN CERTIFICATE REQUEST-----\nAAAA\n-----END CERTIFICATE REQUEST-----',
          }),
        )
      ).errorCode,
    ).toBe(5000);
  });
});

describe('coverage', () => {
  it('every operation of the table reached the sandbox', () => {
    const missing = operations()
      .map((o) => `${o.module}/${o.endpoint.action}`)
      .filter((name) => !sandbox.calls.get(name));
    expect(missing).toEqual([]);
  });
});
