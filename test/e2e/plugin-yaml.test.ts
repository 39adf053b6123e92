/**
 * The provider plugin under the real engine, from a Pulumi YAML program run with a plain
 * `pulumi up` through the real YAML language host (examples/yaml-two-accounts): two explicit
 * providers with different keys and base addresses, each reaching only its own sandbox; a record
 * changed with the others' ids kept; a record removed behind Pulumi's back re-added; a domain
 * restored; contacts looked up into an output; everything destroyed; the keys never in the state
 * unencrypted nor in an output. One stack, the whole story.
 */
import { createProject, requireBuiltPlugin } from "./plugin-helpers";
import { describeYamlTwoAccounts } from "./plugin-stories";

describeYamlTwoAccounts("the provider plugin from a YAML program", {
  async project(program, yamlBin) {
    requireBuiltPlugin();
    // The program's `plugins.providers` names the package linked into its node_modules.
    return createProject({ "Pulumi.yaml": program }, [yamlBin]);
  },
});
