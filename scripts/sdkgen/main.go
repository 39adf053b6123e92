// Command sdkgen writes the SDKs of the domainapi provider plugin from its schema, with Pulumi's own
// code generators (the Go module github.com/pulumi/pulumi/pkg/v3/codegen of the CLI's version).
//
//	sdkgen <schema.json> <version> <out-dir> [language...]
//
// Languages: go, python (default: both). Each SDK goes to <out-dir>/<language>, replacing what
// was there.
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	gogen "github.com/pulumi/pulumi/pkg/v3/codegen/go"
	pygen "github.com/pulumi/pulumi/pkg/v3/codegen/python"
	"github.com/blang/semver"
	"github.com/pulumi/pulumi/pkg/v3/codegen/schema"
)

const tool = "pulumi-domainapi sdkgen"

// goMod is the Go SDK's module file: its import path (schema.json, language.go.importBasePath) and
// the Pulumi Go SDK of the CLI's version.
const goMod = `module github.com/pulumi-domainapi/sdk/go/domainapi

go 1.25

require github.com/pulumi/pulumi/sdk/v3 v3.259.0
`

// noPackages is the loader of a schema that refers to no other package: asking it for one is an
// error (the codegen's plugin loader would start plugins, which nothing here needs).
type noPackages struct{}

func (noPackages) LoadPackage(pkg string, _ *semver.Version) (*schema.Package, error) {
	return nil, fmt.Errorf("the schema refers to package %q; sdkgen loads no other package", pkg)
}

func (l noPackages) LoadPackageV2(_ context.Context, d *schema.PackageDescriptor) (*schema.Package, error) {
	return l.LoadPackage(d.Name, nil)
}

func (l noPackages) LoadPackageReference(pkg string, _ *semver.Version) (schema.PackageReference, error) {
	return nil, fmt.Errorf("the schema refers to package %q; sdkgen loads no other package", pkg)
}

func (l noPackages) LoadPackageReferenceV2(_ context.Context, d *schema.PackageDescriptor) (schema.PackageReference, error) {
	return l.LoadPackageReference(d.Name, nil)
}

func main() {
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "sdkgen:", err)
		os.Exit(1)
	}
}

func run(args []string) error {
	if len(args) < 3 {
		return fmt.Errorf("usage: sdkgen <schema.json> <version> <out-dir> [go|python...]")
	}
	schemaPath, version, outDir := args[0], args[1], args[2]
	languages := args[3:]
	if len(languages) == 0 {
		languages = []string{"go", "python"}
	}
	text, err := os.ReadFile(schemaPath)
	if err != nil {
		return err
	}
	var spec schema.PackageSpec
	if err := json.Unmarshal(text, &spec); err != nil {
		return fmt.Errorf("%s: %w", schemaPath, err)
	}
	spec.Version = version
	pkg, diags, err := schema.BindSpec(spec, noPackages{}, schema.ValidationOptions{})
	if err != nil {
		return err
	}
	if diags.HasErrors() {
		return fmt.Errorf("%s does not bind: %s", schemaPath, diags.Error())
	}
	for _, language := range languages {
		var files map[string][]byte
		switch language {
		case "go":
			files, err = gogen.GeneratePackage(tool, pkg, nil)
			if err == nil {
				// The generator writes the package; its module file is ours: the SDK of the CLI's version.
				files["domainapi/go.mod"] = []byte(goMod)
			}
		case "python":
			files, err = pygen.GeneratePackage(tool, pkg, nil, noPackages{})
		default:
			return fmt.Errorf("unknown language %q (go, python)", language)
		}
		if err != nil {
			return fmt.Errorf("%s SDK: %w", language, err)
		}
		dir := filepath.Join(outDir, language)
		if err := os.RemoveAll(dir); err != nil {
			return err
		}
		for name, content := range files {
			path := filepath.Join(dir, name)
			if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
				return err
			}
			if err := os.WriteFile(path, content, 0o644); err != nil {
				return err
			}
		}
		fmt.Printf("%s SDK: %d files in %s\n", language, len(files), dir)
	}
	return nil
}
