// Command history makes a real Pulumi DIY backend with a history, through the Automation API and the
// pinned CLI on PATH: a fixed script of updates to an inline program of component resources (no
// provider plugin), a refresh, a failed update, secret config and outputs, and a destroy.
//
//	history BACKEND-FOLDER project|legacy plain|gzip|zstd [up]
//
// With `up` it runs one more update of the existing stack (the program of the last succeeded step)
// instead of the script: a real `pulumi up` of the same program, on a backend the stack was copied or
// moved to.
//
// The tests (test/state/backend/) compare what quota-state reads of it with what Pulumi reports.
package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/pulumi/pulumi/sdk/v3/go/auto"
	"github.com/pulumi/pulumi/sdk/v3/go/auto/optdestroy"
	"github.com/pulumi/pulumi/sdk/v3/go/auto/optrefresh"
	"github.com/pulumi/pulumi/sdk/v3/go/auto/optup"
	"github.com/pulumi/pulumi/sdk/v3/go/common/tokens"
	"github.com/pulumi/pulumi/sdk/v3/go/common/workspace"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

type thing struct {
	pulumi.CustomResourceState
}

// newThing registers a custom resource of the hist provider: a new size replaces it, a new label updates it.
func newThing(ctx *pulumi.Context, name, size, label string, opts ...pulumi.ResourceOption) (*thing, error) {
	t := &thing{}
	props := pulumi.Map{"size": pulumi.String(size), "label": pulumi.String(label)}
	return t, ctx.RegisterResource("hist:index:Thing", name, props, t, opts...)
}

type component struct {
	pulumi.ResourceState
}

// newComponent registers a component resource with the step as its output.
func newComponent(ctx *pulumi.Context, name string, step int, opts ...pulumi.ResourceOption) (*component, error) {
	c := &component{}
	if err := ctx.RegisterComponentResource("hist:index:Component", name, c, opts...); err != nil {
		return nil, err
	}
	return c, ctx.RegisterResourceOutputs(c, pulumi.Map{"step": pulumi.Int(step)})
}

// program is the inline program at each step of the script.
func program(step int) pulumi.RunFunc {
	return func(ctx *pulumi.Context) error {
		if step == 7 {
			return fmt.Errorf("step 7 fails on purpose")
		}
		webName, webOpts := "web", []pulumi.ResourceOption{}
		if step >= 4 {
			// A rename through an alias: the same resource, a new urn.
			webName, webOpts = "frontend", []pulumi.ResourceOption{pulumi.Aliases([]pulumi.Alias{{Name: pulumi.String("web")}})}
		}
		web, err := newComponent(ctx, webName, min(step, 2), webOpts...)
		if err != nil {
			return err
		}
		if step < 3 {
			if _, err := newComponent(ctx, "site", 1, pulumi.Parent(web)); err != nil {
				return err
			}
		} else {
			protect := step == 5 || step == 6
			if _, err := newComponent(ctx, "db", 3, pulumi.DependsOn([]pulumi.Resource{web}), pulumi.Protect(protect)); err != nil {
				return err
			}
		}
		if step == interruptedStep {
			bucket, err := newThing(ctx, "bucket", "small", "v1", pulumi.DependsOn([]pulumi.Resource{web}))
			if err != nil {
				return err
			}
			_, err = newThing(ctx, hangName, "small", "v1", pulumi.DependsOn([]pulumi.Resource{bucket}))
			return err
		}
		size := map[bool]string{true: "small", false: "large"}[step < 3]
		label := map[bool]string{true: "v1", false: "v2"}[step < 2]
		if _, err := newThing(ctx, "bucket", size, label, pulumi.DependsOn([]pulumi.Resource{web})); err != nil {
			return err
		}
		if step < 4 {
			if _, err := newThing(ctx, "queue", "small", label, pulumi.Parent(web)); err != nil {
				return err
			}
		}
		ctx.Export("step", pulumi.Int(step))
		ctx.Export("token", pulumi.ToSecret(pulumi.String(fmt.Sprintf("secret-%d", step))))
		return nil
	}
}

// backendURL is the folder's file:// URL, or a remote backend's URL as given (s3://, azblob://, …: the object-storage tests).
func backendURL(folder string) (string, error) {
	if strings.Contains(folder, "://") {
		return folder, nil
	}
	abs, err := filepath.Abs(folder)
	if err != nil {
		return "", err
	}
	if err := os.MkdirAll(abs, 0o755); err != nil {
		return "", err
	}
	return "file://" + abs, nil
}

// workspaceOf is the stack's name, its project (holding the backend's URL) and the Pulumi environment of the layout and compression.
func workspaceOf(folder, layout, compression string) (string, workspace.Project, map[string]string, error) {
	url, err := backendURL(folder)
	if err != nil {
		return "", workspace.Project{}, nil, err
	}
	env := map[string]string{"PULUMI_CONFIG_PASSPHRASE": "history-passphrase", "PULUMI_SKIP_UPDATE_CHECK": "true"}
	switch compression {
	case "gzip":
		env["PULUMI_DIY_BACKEND_GZIP"] = "true"
	case "zstd":
		env["PULUMI_DIY_BACKEND_ZSTD"] = "true"
	}
	stackName := "organization/hist/dev"
	if layout == "legacy" {
		env["PULUMI_DIY_BACKEND_LEGACY_LAYOUT"] = "true"
		env["PULUMI_DIY_BACKEND_IGNORE_DEPRECATION_ERROR"] = "true"
		stackName = "dev"
	}
	project := workspace.Project{
		Name:    tokens.PackageName("hist"),
		Runtime: workspace.NewProjectRuntimeInfo("go", nil),
		Backend: &workspace.ProjectBackend{URL: url},
	}
	return stackName, project, env, nil
}

// lastSucceededStep is the script's last update that succeeded (step 9 destroys, step 10 is interrupted).
const lastSucceededStep = 8

// upOnce selects the existing stack (never creates one) and updates it once with the program of the last succeeded step.
func upOnce(folder, layout, compression string) error {
	ctx := context.Background()
	stackName, project, env, err := workspaceOf(folder, layout, compression)
	if err != nil {
		return err
	}
	// A stack whose passphrase was changed (quota-state secrets change-passphrase) is updated with the new one.
	if passphrase := os.Getenv("PULUMI_CONFIG_PASSPHRASE"); passphrase != "" {
		env["PULUMI_CONFIG_PASSPHRASE"] = passphrase
	}
	stack, err := auto.SelectStackInlineSource(ctx, stackName, "hist", program(lastSucceededStep),
		auto.Project(project), auto.EnvVars(env), auto.SecretsProvider("passphrase"))
	if err != nil {
		return err
	}
	result, err := stack.Up(ctx, optup.Message("up after the move"))
	if err != nil {
		return err
	}
	fmt.Println(result.Summary.Result)
	return nil
}

func run(folder, layout, compression string) error {
	ctx := context.Background()
	stackName, project, env, err := workspaceOf(folder, layout, compression)
	if err != nil {
		return err
	}
	step := 0
	stack, err := auto.UpsertStackInlineSource(ctx, stackName, "hist", func(c *pulumi.Context) error { return program(step)(c) },
		auto.Project(project), auto.EnvVars(env), auto.SecretsProvider("passphrase"))
	if err != nil {
		return err
	}
	if err := stack.SetConfig(ctx, "hist:token", auto.ConfigValue{Value: "s3cr3t", Secret: true}); err != nil {
		return err
	}
	if err := stack.SetConfig(ctx, "hist:region", auto.ConfigValue{Value: "eu-west-1"}); err != nil {
		return err
	}
	for step = 1; step <= 8; step++ {
		message := fmt.Sprintf("step %d", step)
		switch step {
		case 6:
			if _, err := stack.Refresh(ctx, optrefresh.Message(message)); err != nil {
				return err
			}
		case 7:
			if _, err := stack.Up(ctx, optup.Message(message)); err == nil {
				return fmt.Errorf("step 7 should have failed")
			}
		default:
			if _, err := stack.Up(ctx, optup.Message(message)); err != nil {
				return fmt.Errorf("%s: %w", message, err)
			}
		}
	}
	if _, err := stack.Destroy(ctx, optdestroy.Message("step 9")); err != nil {
		return err
	}
	// The provider kills the engine in the middle of this update: no history entry, a stale lock.
	step = interruptedStep
	if _, err := stack.Up(ctx, optup.Message("step 10")); err == nil {
		return fmt.Errorf("step 10 should have been interrupted")
	}
	return nil
}

const interruptedStep = 10

func main() {
	if filepath.Base(os.Args[0]) == providerBinary {
		if err := serveProvider(); err != nil {
			fmt.Fprintln(os.Stderr, providerBinary+":", err)
			os.Exit(1)
		}
		return
	}
	if len(os.Args) == 5 && os.Args[4] == "up" {
		if err := upOnce(os.Args[1], os.Args[2], os.Args[3]); err != nil {
			fmt.Fprintln(os.Stderr, "history up:", err)
			os.Exit(1)
		}
		return
	}
	if len(os.Args) != 4 {
		fmt.Fprintln(os.Stderr, "usage: history BACKEND-FOLDER|SCHEME://BUCKET?… project|legacy plain|gzip|zstd [up]")
		os.Exit(2)
	}
	if err := run(os.Args[1], os.Args[2], os.Args[3]); err != nil {
		fmt.Fprintln(os.Stderr, "history:", err)
		os.Exit(1)
	}
}
