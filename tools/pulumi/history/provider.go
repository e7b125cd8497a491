package main

// The "hist" resource provider: custom resources with ids, updates, replacements, deletes and a
// secret output, and no cloud behind them. The history tool is this provider too when it runs as
// pulumi-resource-hist (the script links it onto PATH, where the engine finds ambient plugins).

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"os"
	"strings"
	"syscall"

	"github.com/pulumi/pulumi/sdk/v3/go/pulumi/provider"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"google.golang.org/protobuf/types/known/emptypb"
	"google.golang.org/protobuf/types/known/structpb"
)

const providerBinary = "pulumi-resource-hist"

// Pulumi's signature key and the secret signature: a map carrying them is a secret value on the wire.
const (
	signatureKey    = "4dabf18193072939515e22adb298388d"
	secretSignature = "1b47061264138c4ac30d75fd1eb44270"
)

// hangName is the resource whose create never finishes: the provider kills the engine (its parent)
// instead, so the update dies with a pending operation and leaves its lock behind.
const hangName = "hang"

type histProvider struct {
	pulumirpc.UnimplementedResourceProviderServer
}

func serveProvider() error {
	return provider.Main("hist", func(*provider.HostClient) (pulumirpc.ResourceProviderServer, error) {
		return &histProvider{}, nil
	})
}

func (p *histProvider) GetPluginInfo(context.Context, *emptypb.Empty) (*pulumirpc.PluginInfo, error) {
	return &pulumirpc.PluginInfo{Version: "1.0.0"}, nil
}

func (p *histProvider) Handshake(context.Context, *pulumirpc.ProviderHandshakeRequest) (*pulumirpc.ProviderHandshakeResponse, error) {
	return &pulumirpc.ProviderHandshakeResponse{AcceptSecrets: true, AcceptResources: true, AcceptOutputs: true}, nil
}

func (p *histProvider) CheckConfig(_ context.Context, req *pulumirpc.CheckRequest) (*pulumirpc.CheckResponse, error) {
	return &pulumirpc.CheckResponse{Inputs: req.GetNews()}, nil
}

func (p *histProvider) DiffConfig(context.Context, *pulumirpc.DiffRequest) (*pulumirpc.DiffResponse, error) {
	return &pulumirpc.DiffResponse{Changes: pulumirpc.DiffResponse_DIFF_NONE}, nil
}

func (p *histProvider) Configure(context.Context, *pulumirpc.ConfigureRequest) (*pulumirpc.ConfigureResponse, error) {
	return &pulumirpc.ConfigureResponse{AcceptSecrets: true, AcceptResources: true, AcceptOutputs: true}, nil
}

func (p *histProvider) Check(_ context.Context, req *pulumirpc.CheckRequest) (*pulumirpc.CheckResponse, error) {
	return &pulumirpc.CheckResponse{Inputs: req.GetNews()}, nil
}

// Diff replaces on a new size, updates on any other change.
func (p *histProvider) Diff(_ context.Context, req *pulumirpc.DiffRequest) (*pulumirpc.DiffResponse, error) {
	olds, news := req.GetOlds().GetFields(), req.GetNews().GetFields()
	var diffs, replaces []string
	for _, key := range []string{"size", "label"} {
		if olds[key].GetStringValue() != news[key].GetStringValue() {
			diffs = append(diffs, key)
			if key == "size" {
				replaces = append(replaces, key)
			}
		}
	}
	changes := pulumirpc.DiffResponse_DIFF_NONE
	if len(diffs) > 0 {
		changes = pulumirpc.DiffResponse_DIFF_SOME
	}
	return &pulumirpc.DiffResponse{Changes: changes, Diffs: diffs, Replaces: replaces}, nil
}

func (p *histProvider) Create(_ context.Context, req *pulumirpc.CreateRequest) (*pulumirpc.CreateResponse, error) {
	name := req.GetName()
	if name == "" {
		name = req.GetUrn()[strings.LastIndex(req.GetUrn(), "::")+2:]
	}
	if name == hangName && !req.GetPreview() {
		_ = syscall.Kill(os.Getppid(), syscall.SIGKILL)
		select {}
	}
	// The id depends on the inputs, so a replacement gets a new one.
	digest := sha256.Sum256([]byte(req.GetUrn() + req.GetProperties().String()))
	return &pulumirpc.CreateResponse{Id: name + "-" + hex.EncodeToString(digest[:4]), Properties: outputsOf(req.GetProperties())}, nil
}

func (p *histProvider) Update(_ context.Context, req *pulumirpc.UpdateRequest) (*pulumirpc.UpdateResponse, error) {
	return &pulumirpc.UpdateResponse{Properties: outputsOf(req.GetNews())}, nil
}

func (p *histProvider) Read(_ context.Context, req *pulumirpc.ReadRequest) (*pulumirpc.ReadResponse, error) {
	return &pulumirpc.ReadResponse{Id: req.GetId(), Properties: req.GetProperties(), Inputs: req.GetInputs()}, nil
}

func (p *histProvider) Delete(context.Context, *pulumirpc.DeleteRequest) (*emptypb.Empty, error) {
	return &emptypb.Empty{}, nil
}

// outputsOf is the inputs plus an arn and a secret password derived from them.
func outputsOf(inputs *structpb.Struct) *structpb.Struct {
	outputs := &structpb.Struct{Fields: map[string]*structpb.Value{}}
	for key, value := range inputs.GetFields() {
		outputs.Fields[key] = value
	}
	label := inputs.GetFields()["label"].GetStringValue()
	outputs.Fields["arn"] = structpb.NewStringValue("arn:hist:" + label)
	outputs.Fields["password"] = structpb.NewStructValue(&structpb.Struct{Fields: map[string]*structpb.Value{
		signatureKey: structpb.NewStringValue(secretSignature),
		"value":      structpb.NewStringValue("pw-" + label),
	}})
	return outputs
}
