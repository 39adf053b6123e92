// Runs the Go template's program (templates/domainapi-go, copied into ./template by the test as a
// package of its own) under the engine as an Automation API inline program: `up` prints the stack
// outputs as JSON, `destroy` removes everything. The stack config is what `pulumi new` asks for.
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"

	"domainapi-e2e/template-go-driver/template"

	"github.com/pulumi/pulumi/sdk/v3/go/auto"
	"github.com/pulumi/pulumi/sdk/v3/go/auto/optdestroy"
	"github.com/pulumi/pulumi/sdk/v3/go/auto/optup"
	"github.com/pulumi/pulumi/sdk/v3/go/common/tokens"
	"github.com/pulumi/pulumi/sdk/v3/go/common/workspace"
)

func run(step string) error {
	ctx := context.Background()
	project := workspace.Project{
		Name:    tokens.PackageName("dns"),
		Runtime: workspace.NewProjectRuntimeInfo("go", nil),
	}
	stack, err := auto.UpsertStackInlineSource(ctx, "dev", "dns", template.Program,
		auto.Project(project), auto.WorkDir(os.Getenv("WORK_DIR")), auto.SecretsProvider("passphrase"))
	if err != nil {
		return err
	}
	if err := stack.SetAllConfig(ctx, map[string]auto.ConfigValue{
		"domainapi:baseUrl": {Value: os.Getenv("BASE_URL")},
		"domainapi:apiKey":  {Value: os.Getenv("API_KEY"), Secret: true},
		"templateId":        {Value: os.Getenv("TEMPLATE_ID")},
	}); err != nil {
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
		fmt.Fprintln(os.Stderr, "usage: template-go-driver up|destroy")
		os.Exit(2)
	}
	if err := run(os.Args[1]); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
