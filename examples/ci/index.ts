/**
 * The program the CI workflow (.github/workflows/pulumi.yml) previews and deploys. The provider is
 * configured entirely from the environment: DOMAINAPI_BASE_URL and DOMAINAPI_API_KEY (a secret of
 * the repository), so no key is ever written to a stack file.
 */
import * as pulumi from "@pulumi/pulumi";
import * as domainapi from "pulumi-domainapi";

const config = new pulumi.Config();

const web = new domainapi.DnsTemplateRecords("web", {
  templateId: config.get("templateId") ?? "web",
  records: [
    { name: "@", type: "A", content: "192.0.2.10" },
    { name: "www", type: "CNAME", content: "{domainname}." },
    { name: "@", type: "TXT", content: "v=spf1 -all" },
  ],
});

export const recordIds = web.recordIds;
export const lastPlan = web.lastPlan;
