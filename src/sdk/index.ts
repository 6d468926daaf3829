/**
 * ddedge's registrar SDK: every operation of the DonDominio API, typed and validated.
 *
 *   import { Registrar } from 'ddedge';
 *   const registrar = new Registrar({ url: 'https://simple-api.dondominio.net', user, password });
 *   const info = await registrar.domain.getInfo({ domain: 'example.com', infoType: 'nameservers' });
 */
export {
  Registrar,
  type RegistrarOptions,
  type SdkExtras,
  type ListHelpers,
  type Method,
  type ModuleMethods,
} from './registrar.js';
export { ApiClient, type ApiClientOptions, type Page } from '../api/client.js';
export { API, operations, findOperation, type Api, type ModuleName, type Operation } from '../api/endpoints/index.js';
export { ApiError, PagingError, apiErrorKind, type ApiErrorKind } from '../api/errors.js';
export { TransportError, type TransportErrorKind } from '../http/errors.js';
export { ValidationError, DdedgeError, ExitCode } from '../lib/errors.js';
export type { Endpoint, QueryInfo, ResultOf } from '../api/endpoints/types.js';
export type { ContactInput } from '../api/endpoints/contact-fields.js';
export type * from '../api/endpoints/account.js';
export type * from '../api/endpoints/contact.js';
export type * from '../api/endpoints/domain.js';
export type * from '../api/endpoints/service.js';
export type * from '../api/endpoints/ssl.js';
export type * from '../api/endpoints/tool.js';
