module ${PROJECT}

go 1.25

// The Go SDK of the provider plugin. Until it is published as its own module, point it at a clone:
//   go mod edit -replace github.com/pulumi-domainapi/sdk/go/domainapi=<clone>/sdk/go/domainapi
// then `go mod tidy`. The SDK names the plugin it needs (domainapi 0.1.0, from its
// pluginDownloadURL); install it once with
//   pulumi plugin install resource domainapi 0.1.0 --file pulumi-resource-domainapi-v0.1.0-linux-amd64.tar.gz
require (
	github.com/pulumi-domainapi/sdk/go/domainapi v0.1.0
	github.com/pulumi/pulumi/sdk/v3 v3.259.0
)
