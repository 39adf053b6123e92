/**
 * DNS template records declared in stack config: one DnsTemplateRecords per template id in
 * `templates` (see Pulumi.dev.yaml). Adding a template to the config adds a resource; removing one
 * removes its records.
 */
import * as pulumi from "@pulumi/pulumi";
import type { DnsRecordArgs, SafetyThresholdArgs } from "pulumi-domainapi";
import * as domainapi from "pulumi-domainapi";

/** One template's entry in the `templates` config. */
interface TemplateConfig {
  records: DnsRecordArgs[];
  /** Default true: the resource owns every record of the template. */
  purge?: boolean;
  safetyThreshold?: SafetyThresholdArgs | false;
}

const config = new pulumi.Config();
const templates = config.requireObject<Record<string, TemplateConfig>>("templates");

const managed = Object.entries(templates).map(
  ([templateId, template]) =>
    new domainapi.DnsTemplateRecords(templateId, {
      templateId,
      records: template.records,
      purge: template.purge,
      safetyThreshold: template.safetyThreshold,
    }),
);

/** Record ids by template id, aligned with `records`. */
export const recordIds = Object.fromEntries(managed.map((r, i) => [Object.keys(templates)[i], r.recordIds]));
/** The records of each template, canonical order, with ids. */
export const records = Object.fromEntries(managed.map((r, i) => [Object.keys(templates)[i], r.records]));
