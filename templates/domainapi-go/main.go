// The records of one DNS template. `pulumi up` makes the template hold exactly these records;
// `pulumi preview` shows, record by record, what it would change first.
//
// The name of a record is relative to the domain the template is applied to ("@" for the domain
// itself, "www" for its www); `{domainname}` in a content stands for that domain.
package main

import (
	"github.com/pulumi-domainapi/sdk/go/domainapi"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi/config"
)

func main() {
	pulumi.Run(program)
}

func program(ctx *pulumi.Context) error {
	cfg := config.New(ctx, "")
	templateID := cfg.Get("templateId")
	if templateID == "" {
		templateID = "web"
	}
	records, err := domainapi.NewDnsTemplateRecords(ctx, "records", &domainapi.DnsTemplateRecordsArgs{
		TemplateId: pulumi.String(templateID),
		Records: domainapi.DnsRecordArray{
			domainapi.DnsRecordArgs{Name: pulumi.String("@"), Type: pulumi.String("A"), Content: pulumi.String("192.0.2.10")},
			domainapi.DnsRecordArgs{Name: pulumi.String("www"), Type: pulumi.String("CNAME"), Content: pulumi.String("{domainname}.")},
			domainapi.DnsRecordArgs{Name: pulumi.String("@"), Type: pulumi.String("MX"), Content: pulumi.String("mx1.example.net"), Priority: pulumi.Int(10)},
			domainapi.DnsRecordArgs{Name: pulumi.String("@"), Type: pulumi.String("TXT"), Content: pulumi.String("v=spf1 mx -all")},
		},
	})
	if err != nil {
		return err
	}
	// The records as the template holds them (by key, e.g. www/CNAME), and the id the API gave each.
	ctx.Export("templateRecords", records.Records)
	ctx.Export("recordIds", records.Ids)
	// What the last `pulumi up` did.
	ctx.Export("lastPlan", records.LastPlan)
	return nil
}
