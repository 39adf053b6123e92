/**
 * pulumi-domainapi: DNS template records, domain restores and contact lookups of a registrar's
 * Domain Management API, as Pulumi resources and functions.
 *
 * @example
 * import * as domainapi from "pulumi-domainapi";
 * new domainapi.DnsTemplateRecords("web", { templateId: "tpl-1", records: [{ name: "@", type: "A", content: "192.0.2.10" }] });
 * new domainapi.DnsTemplateRecords("mail", { templateId: "tpl-2", records: [domainapi.spf({ mx: true }).record] });
 */

export {
  BUILDERS,
  BuilderArgumentError,
  type CaaArgs,
  CaaArgsSchema,
  type CaaResult,
  CaaResultSchema,
  caa,
  type DmarcArgs,
  DmarcArgsSchema,
  type DmarcResult,
  DmarcResultSchema,
  dmarc,
  type SpfArgs,
  SpfArgsSchema,
  type SpfResult,
  SpfResultSchema,
  spf,
} from "./checks/builders";
export type { CaaTag } from "./checks/caa";
export type { DmarcPolicy } from "./checks/dmarc";
export { RULE_NAMES, RULES, type RuleName } from "./checks/rules";
export { type PreviewSource, planComment, planExpectation } from "./cli/review";
export type { Contact, ContactStatus, RecordType } from "./client/wire";
export {
  ContactsListingError,
  type GetContactsOptions,
  type GetContactsOutputArgs,
  type GetContactsResult,
  getContacts,
  getContactsOutput,
} from "./contacts/getContacts";
export { type GetContactsArgs, InvalidArgumentError } from "./contacts/query";
export { dnsTemplateRecordsProvider, domainRestoreProvider } from "./dynamic";
export {
  type DnsRecord,
  type DnsRecordArgs,
  DnsTemplateRecords,
  type DnsTemplateRecordsArgs,
  type SafetyThresholdArgs,
} from "./dynamic/recordsResource";
export { DomainRestore, type DomainRestoreArgs } from "./dynamic/restoreResource";
export {
  ClientClosedError,
  ConfigError,
  DomainApiBaseError,
  DomainApiError,
  type DomainApiErrorCode,
  type DomainApiErrorKind,
  DomainNotInAccountError,
  RequestBodyError,
  type RequestOutcome,
  TemplateNotFoundError,
} from "./errors";
export {
  type ImportedTemplate,
  type ImportOptions,
  importProgram,
  importZones,
  NothingToImportError,
  type ProgramLanguage,
  ZoneInputError,
  type ZoneSource,
} from "./import";
