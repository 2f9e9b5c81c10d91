package main

// Reading a CRD file's schema, for requiredMain.

import (
	"fmt"
	"os"

	"sigs.k8s.io/yaml"
)

// crdSchema: the v1beta1 openAPIV3Schema of a CRD file (the version HyperShift's
// HostedCluster is served and stored at).
func crdSchema(path string) (map[string]any, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var crd map[string]any
	if err := yaml.Unmarshal(data, &crd); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	spec, _ := crd["spec"].(map[string]any)
	versions, _ := spec["versions"].([]any)
	for _, v := range versions {
		vm, _ := v.(map[string]any)
		if vm["name"] != "v1beta1" {
			continue
		}
		schema, _ := vm["schema"].(map[string]any)
		if s, ok := schema["openAPIV3Schema"].(map[string]any); ok {
			return s, nil
		}
	}
	return nil, fmt.Errorf("%s: no v1beta1 openAPIV3Schema", path)
}

// num: a YAML number as decoded (sigs.k8s.io/yaml goes through JSON, so float64; the other
// kinds in case a decoder keeps integers).
func num(v any) (float64, bool) {
	switch n := v.(type) {
	case float64:
		return n, true
	case int64:
		return float64(n), true
	case int:
		return float64(n), true
	}
	return 0, false
}
