// Command judge loads Pulumi state files the way Pulumi v3.274.1 itself loads them and prints one
// JSON line per file: {"file", "shape", "accepted", "stage", "error"}.
//
// It links github.com/pulumi/pulumi/pkg/v3 and calls Pulumi's own functions, in Pulumi's order,
// per shape (each confirmed against the v3.274.1 module source):
//
//   - export {version, deployment}: `pulumi stack import` (pkg/cmd/pulumi/stack/stack_import.go):
//     json.Decoder.Decode into apitype.UntypedDeployment; stack.DeserializeUntypedDeployment, which is
//     stack.UnmarshalUntypedDeployment (version and features checks, migration) followed by
//     stack.DeserializeDeploymentV3 (manifest, secrets manager, resources, pending operations);
//     then SaveSnapshot's (pkg/cmd/pulumi/stack/io.go) deploy.Snapshot.VerifyIntegrity. SaveSnapshot's
//     stack-name comparison is skipped: it depends on the stack imported into, not on the file.
//   - DIY checkpoint {version, checkpoint}, versions 0 to 4, and the legacy unversioned checkpoint:
//     the DIY backend's getSnapshot (pkg/backend/diy/state.go): encoding.DetectCompression and
//     encoding.Compress (so .json.gz and .json.zst read as the backend reads them),
//     stack.UnmarshalVersionedCheckpointToLatestCheckpoint, stack.DeserializeCheckpoint, then
//     deploy.Snapshot.VerifyIntegrity.
//   - bare deployment (the file `pulumi state edit` writes and reads back): the state-edit encoder's
//     TextToSnapshot (pkg/cmd/pulumi/state/state_edit_encoder.go), i.e. stack.DeserializeUntypedDeployment
//     of the text as version 3, then deploy.Snapshot.VerifyIntegrity (state_edit.go validateAndPrintState).
//
// A file that is none of these (a single resource record, say) has no Pulumi path: it is reported with
// "accepted": null and stage "shape".
//
// Secrets without keys: the secrets provider answers every type (passphrase, service, cloud, ...) with a
// manager whose decrypter returns a JSON placeholder, for single and batch calls, because Pulumi parses
// decrypted text as JSON. The real managers are never built (service and the KMS providers use the
// network). A deployment with ciphertext and no secrets_providers still goes through Pulumi's own
// handling, since the provider is only asked when the deployment names a type.
//
// Each file runs under recover(): a Pulumi panic gives stage "panic" and the next file is still judged.
// Files come as arguments, or one path per line on standard input with "-".
package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"

	"github.com/pulumi/pulumi/pkg/v3/resource/deploy"
	"github.com/pulumi/pulumi/pkg/v3/resource/stack"
	"github.com/pulumi/pulumi/pkg/v3/secrets"
	"github.com/pulumi/pulumi/sdk/v3/go/common/apitype"
	"github.com/pulumi/pulumi/sdk/v3/go/common/encoding"
	"github.com/pulumi/pulumi/sdk/v3/go/common/resource/config"
)

// verdict is one output line.
type verdict struct {
	File     string  `json:"file"`
	Shape    string  `json:"shape"`
	Accepted *bool   `json:"accepted"`
	Stage    *string `json:"stage"`
	Error    *string `json:"error"`
}

// placeholderSecret is what every decryption returns: valid JSON, as Pulumi requires of plaintext.
const placeholderSecret = `"[secret]"`

type placeholderCrypter struct{}

func (placeholderCrypter) EncryptValue(context.Context, string) (string, error) {
	return "placeholder-ciphertext", nil
}

func (placeholderCrypter) BatchEncrypt(_ context.Context, plaintexts []string) ([]string, error) {
	out := make([]string, len(plaintexts))
	for i := range out {
		out[i] = "placeholder-ciphertext"
	}
	return out, nil
}

func (placeholderCrypter) DecryptValue(context.Context, string) (string, error) {
	return placeholderSecret, nil
}

func (placeholderCrypter) BatchDecrypt(_ context.Context, ciphertexts []string) ([]string, error) {
	out := make([]string, len(ciphertexts))
	for i := range out {
		out[i] = placeholderSecret
	}
	return out, nil
}

var _ config.Crypter = placeholderCrypter{}

type placeholderManager struct {
	kind  string
	state json.RawMessage
}

func (m placeholderManager) Type() string                { return m.kind }
func (m placeholderManager) State() json.RawMessage      { return m.state }
func (m placeholderManager) Encrypter() config.Encrypter { return placeholderCrypter{} }
func (m placeholderManager) Decrypter() config.Decrypter { return placeholderCrypter{} }

type placeholderProvider struct{}

func (placeholderProvider) OfType(_ context.Context, kind string, state json.RawMessage) (secrets.Manager, error) {
	return placeholderManager{kind: kind, state: state}, nil
}

var provider secrets.Provider = placeholderProvider{}

// refusal is an error tagged with the step of Pulumi's path that produced it.
type refusal struct {
	stage string
	err   error
}

func (r refusal) Error() string { return r.err.Error() }

func refuse(stage string, err error) error { return refusal{stage: stage, err: err} }

// classify names the shape of a document by its top-level keys, as our checker does.
func classify(top map[string]json.RawMessage) string {
	if _, ok := top["deployment"]; ok {
		return "export"
	}
	for _, key := range []string{"checkpoint", "latest", "stack", "target"} {
		if _, ok := top[key]; ok {
			return "checkpoint"
		}
	}
	for _, key := range []string{"manifest", "resources", "pending_operations", "secrets_providers"} {
		if _, ok := top[key]; ok {
			return "deployment"
		}
	}
	return "other"
}

func verifyIntegrity(snap *deploy.Snapshot) error {
	if snap == nil {
		return nil
	}
	if err := snap.VerifyIntegrity(); err != nil {
		return refuse("integrity", err)
	}
	return nil
}

func judgeExport(ctx context.Context, text []byte) error {
	var untyped apitype.UntypedDeployment
	if err := json.NewDecoder(bytes.NewReader(text)).Decode(&untyped); err != nil {
		return refuse("decode", err)
	}
	v3, err := stack.UnmarshalUntypedDeployment(ctx, &untyped)
	if err != nil {
		return refuse("unmarshal", err)
	}
	snap, err := stack.DeserializeDeploymentV3(ctx, *v3, provider)
	if err != nil {
		return refuse("deserialize", err)
	}
	return verifyIntegrity(snap)
}

func judgeCheckpoint(ctx context.Context, raw []byte) error {
	marshaler := encoding.Compress(encoding.JSON, encoding.DetectCompression(raw))
	checkpoint, _, _, err := stack.UnmarshalVersionedCheckpointToLatestCheckpoint(marshaler, raw)
	if err != nil {
		return refuse("unmarshal", err)
	}
	snap, err := stack.DeserializeCheckpoint(ctx, provider, checkpoint)
	if err != nil {
		return refuse("deserialize", err)
	}
	return verifyIntegrity(snap)
}

func judgeDeployment(ctx context.Context, text []byte) error {
	snap, err := stack.DeserializeUntypedDeployment(ctx, &apitype.UntypedDeployment{Version: 3, Deployment: text}, provider)
	if err != nil {
		return refuse("deserialize", err)
	}
	return verifyIntegrity(snap)
}

// decompress reads a compressed DIY stack file's JSON the way the backend's marshaler does.
func decompress(raw []byte) ([]byte, error) {
	compression := encoding.DetectCompression(raw)
	if compression == encoding.CompressionNone {
		return raw, nil
	}
	var holder json.RawMessage
	if err := encoding.Compress(encoding.JSON, compression).Unmarshal(raw, &holder); err != nil {
		return nil, err
	}
	return holder, nil
}

func judge(ctx context.Context, file, path string) (result verdict) {
	result = verdict{File: file, Shape: "other"}
	fail := func(stage string, err error) verdict {
		no := false
		message := err.Error()
		result.Accepted, result.Stage, result.Error = &no, &stage, &message
		return result
	}
	defer func() {
		if recovered := recover(); recovered != nil {
			result = fail("panic", fmt.Errorf("%v", recovered))
		}
	}()
	raw, err := os.ReadFile(path)
	if err != nil {
		return fail("read", err)
	}
	text, err := decompress(raw)
	if err != nil {
		return fail("decode", err)
	}
	var top map[string]json.RawMessage
	if err := json.NewDecoder(bytes.NewReader(text)).Decode(&top); err != nil {
		return fail("decode", err)
	}
	result.Shape = classify(top)
	switch result.Shape {
	case "export":
		err = judgeExport(ctx, text)
	case "checkpoint":
		err = judgeCheckpoint(ctx, raw)
	case "deployment":
		err = judgeDeployment(ctx, text)
	default:
		stage := "shape"
		message := "not a state document Pulumi loads (no deployment, checkpoint, manifest or resources)"
		result.Stage, result.Error = &stage, &message
		return result
	}
	if err != nil {
		var tagged refusal
		if errors.As(err, &tagged) {
			return fail(tagged.stage, tagged.err)
		}
		return fail("unknown", err)
	}
	yes := true
	result.Accepted = &yes
	return result
}

func main() {
	files := os.Args[1:]
	if len(files) == 1 && files[0] == "-" {
		files = nil
		scanner := bufio.NewScanner(os.Stdin)
		scanner.Buffer(make([]byte, 1<<20), 1<<20)
		for scanner.Scan() {
			if line := scanner.Text(); line != "" {
				files = append(files, line)
			}
		}
	}
	if len(files) == 0 {
		fmt.Fprintln(os.Stderr, "usage: judge FILE... (or - to read paths from standard input)")
		os.Exit(2)
	}
	// Relative paths are relative to the caller's directory (npm sets INIT_CWD); the file is echoed verbatim.
	base := os.Getenv("INIT_CWD")
	out := bufio.NewWriter(os.Stdout)
	defer out.Flush()
	encoder := json.NewEncoder(out)
	encoder.SetEscapeHTML(false)
	ctx := context.Background()
	for _, file := range files {
		path := file
		if base != "" && !filepath.IsAbs(path) {
			path = filepath.Join(base, path)
		}
		if err := encoder.Encode(judge(ctx, file, path)); err != nil {
			fmt.Fprintln(os.Stderr, "judge: "+strconv.Quote(err.Error()))
			os.Exit(2)
		}
		out.Flush()
	}
}
