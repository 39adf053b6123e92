// A Go Automation API inline program on the domainapi provider plugin, through the Go SDK generated
// from its schema (sdk/go/domainapi): two explicit providers with different keys and base
// addresses, two templates, a restore, a contacts lookup, and a restore on the default provider
// (configured from the stack config `domainapi:*`). test/e2e/plugin-go.test.ts runs it one
// step at a time (the sandboxes live in the test) and reads what it prints.
//
//	go-program up|destroy
//
// Settings come from the environment: LIVE_URL, LIVE_KEY, TEST_URL, TEST_KEY, WWW_ADDRESS,
// API_ADDRESS, PLUGIN_DIR (the package, holding pulumi-resource-domainapi; empty: the plugin
// installed with `pulumi plugin install`), WORK_DIR.
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"

	"github.com/pulumi-domainapi/sdk/go/domainapi"
	"github.com/pulumi/pulumi/sdk/v3/go/auto"
	"github.com/pulumi/pulumi/sdk/v3/go/auto/optdestroy"
	"github.com/pulumi/pulumi/sdk/v3/go/auto/optup"
	"github.com/pulumi/pulumi/sdk/v3/go/common/tokens"
	"github.com/pulumi/pulumi/sdk/v3/go/common/workspace"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi/config"
)

func program(ctx *pulumi.Context) error {
	cfg := config.New(ctx, "")
	// The live key comes from secret stack config; the test key as plain text, which the SDK and
	// the provider's check mark secret all the same.
	live, err := domainapi.NewProvider(ctx, "live", &domainapi.ProviderArgs{
		ApiKey:  cfg.RequireSecret("liveApiKey"),
		BaseUrl: pulumi.String(cfg.Require("liveBaseUrl")),
	})
	if err != nil {
		return err
	}
	test, err := domainapi.NewProvider(ctx, "test", &domainapi.ProviderArgs{
		ApiKey:     pulumi.String(os.Getenv("TEST_KEY")),
		BaseUrl:    pulumi.String(cfg.Require("testBaseUrl")),
		MaxRetries: pulumi.Int(2),
	})
	if err != nil {
		return err
	}
	web, err := domainapi.NewDnsTemplateRecords(ctx, "web", &domainapi.DnsTemplateRecordsArgs{
		TemplateId: pulumi.String("web"),
		Records: domainapi.DnsRecordArray{
			domainapi.DnsRecordArgs{Name: pulumi.String("@"), Type: pulumi.String("A"), Content: pulumi.String("192.0.2.10")},
			domainapi.DnsRecordArgs{Name: pulumi.String("www"), Type: pulumi.String("A"), Content: pulumi.String(cfg.Require("wwwAddress"))},
			domainapi.DnsRecordArgs{Name: pulumi.String("@"), Type: pulumi.String("MX"), Content: pulumi.String("mail.{domainname}."), Priority: pulumi.Int(10)},
			domainapi.DnsRecordArgs{Name: pulumi.String("@"), Type: pulumi.String("TXT"), Content: pulumi.String("v=spf1 mx -all")},
		},
	}, pulumi.Provider(live))
	if err != nil {
		return err
	}
	staging, err := domainapi.NewDnsTemplateRecords(ctx, "staging", &domainapi.DnsTemplateRecordsArgs{
		TemplateId: pulumi.String("staging"),
		Purge:      pulumi.Bool(false),
		Records: domainapi.DnsRecordArray{
			domainapi.DnsRecordArgs{Name: pulumi.String("@"), Type: pulumi.String("A"), Content: pulumi.String("198.51.100.10")},
			domainapi.DnsRecordArgs{Name: pulumi.String("api"), Type: pulumi.String("A"), Content: pulumi.String(cfg.Require("apiAddress"))},
			domainapi.DnsRecordArgs{Name: pulumi.String("www"), Type: pulumi.String("CNAME"), Content: pulumi.String("{domainname}.")},
		},
	}, pulumi.Provider(test))
	if err != nil {
		return err
	}
	restore, err := domainapi.NewDomainRestore(ctx, "restore", &domainapi.DomainRestoreArgs{
		Domain: pulumi.String("shop.example"),
	}, pulumi.Provider(test))
	if err != nil {
		return err
	}
	// The default provider: the stack config `domainapi:*` (here the test account's).
	if _, err := domainapi.NewDomainRestore(ctx, "restore-default", &domainapi.DomainRestoreArgs{
		Domain: pulumi.String("old.example"),
	}); err != nil {
		return err
	}
	contacts, err := domainapi.GetContacts(ctx, &domainapi.GetContactsArgs{
		Status: []string{"ok"},
		Sort:   pulumi.StringRef("handle"),
		Limit:  pulumi.IntRef(3),
	}, pulumi.Provider(live))
	if err != nil {
		return err
	}
	handles := []string{}
	for _, c := range contacts.Contacts {
		handles = append(handles, c.Handle)
	}
	ctx.Export("webIds", web.Ids)
	ctx.Export("stagingIds", staging.Ids)
	ctx.Export("restoredAt", restore.RestoredAt)
	ctx.Export("contactHandles", pulumi.ToStringArray(handles))
	ctx.Export("contactsTotal", pulumi.Int(contacts.Total))
	return nil
}

func run(step string) error {
	ctx := context.Background()
	project := workspace.Project{
		Name:    tokens.PackageName("domainapi-go"),
		Runtime: workspace.NewProjectRuntimeInfo("go", nil),
	}
	if dir := os.Getenv("PLUGIN_DIR"); dir != "" {
		project.Plugins = &workspace.Plugins{Providers: []workspace.PluginOptions{{Name: "domainapi", Path: dir}}}
	}
	stack, err := auto.UpsertStackInlineSource(ctx, "dev", "domainapi-go", program,
		auto.Project(project), auto.WorkDir(os.Getenv("WORK_DIR")), auto.SecretsProvider("passphrase"))
	if err != nil {
		return err
	}
	settings := map[string]auto.ConfigValue{
		"liveBaseUrl": {Value: os.Getenv("LIVE_URL")},
		"liveApiKey":  {Value: os.Getenv("LIVE_KEY"), Secret: true},
		"testBaseUrl": {Value: os.Getenv("TEST_URL")},
		"wwwAddress":  {Value: os.Getenv("WWW_ADDRESS")},
		"apiAddress":  {Value: os.Getenv("API_ADDRESS")},
		// The default provider's settings, as for the dynamic resources.
		"domainapi:baseUrl": {Value: os.Getenv("TEST_URL")},
		"domainapi:apiKey":  {Value: os.Getenv("TEST_KEY"), Secret: true},
	}
	if err := stack.SetAllConfig(ctx, settings); err != nil {
		return err
	}
	switch step {
	case "up":
		res, err := stack.Up(ctx, optup.ProgressStreams(os.Stderr))
		if err != nil {
			return err
		}
		outputs := map[string]any{}
		for k, v := range res.Outputs {
			outputs[k] = v.Value
		}
		return json.NewEncoder(os.Stdout).Encode(outputs)
	case "destroy":
		_, err := stack.Destroy(ctx, optdestroy.ProgressStreams(os.Stderr))
		return err
	}
	return fmt.Errorf("unknown step %q: up or destroy", step)
}

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: go-program up|destroy")
		os.Exit(2)
	}
	if err := run(os.Args[1]); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
