"""The records of one DNS template.

`pulumi up` makes the template hold exactly these records; `pulumi preview` shows, record by
record, what it would change first. The name of a record is relative to the domain the template is
applied to ("@" for the domain itself, "www" for its www); `{domainname}` in a content stands for
that domain.
"""

import pulumi
import pulumi_domainapi as domainapi

config = pulumi.Config()

records = domainapi.DnsTemplateRecords(
    "records",
    template_id=config.get("templateId") or "web",
    records=[
        domainapi.DnsRecordArgs(name="@", type="A", content="192.0.2.10"),
        domainapi.DnsRecordArgs(name="www", type="CNAME", content="{domainname}."),
        domainapi.DnsRecordArgs(name="@", type="MX", content="mx1.example.net", priority=10),
        domainapi.DnsRecordArgs(name="@", type="TXT", content="v=spf1 mx -all"),
    ],
)

# The records as the template holds them (by key, e.g. www/CNAME), and the id the API gave each.
pulumi.export("templateRecords", records.records)
pulumi.export("recordIds", records.ids)
# What the last `pulumi up` did.
pulumi.export("lastPlan", records.last_plan)
