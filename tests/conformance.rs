//! The conformance floor: for each of CCCMO's nine platforms, HA and single-replica, every
//! object CCCMO's own code produced (testdata/conformance/<platform>/expected) is rendered by
//! `ccm-render render` and equal after normalisation; and two runs give byte-identical trees.

mod common;

use common::*;
use pretty_assertions::assert_eq;

fn render_case(platform: &str, infrastructure: &str, dest: &std::path::Path) {
    let out = render_conformance(platform, infrastructure, &[], dest);
    assert!(
        out.status.success(),
        "{platform} {infrastructure}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

fn check_case(platform: &str, infrastructure: &str, expected: &str) {
    let dir = tempfile::tempdir().expect("tempdir");
    render_case(platform, infrastructure, dir.path());
    let tree = read_tree(dir.path());
    let rendered = objects_in(&tree, "manifests");
    let expected_text =
        std::fs::read_to_string(conformance(&format!("{platform}/expected/{expected}")))
            .expect("expected file");
    let expected_objects = parse_all(&expected_text);
    assert!(!expected_objects.is_empty());
    for want in &expected_objects {
        let mut key = key_of(want);
        if key.starts_with("Service/") || key.starts_with("ValidatingAdmissionPolicy") {
            key = key_of(&normalise(want));
        }
        let Some(got) = rendered.get(&key) else {
            panic!(
                "{platform} {infrastructure}: {key} not rendered; rendered: {:?}",
                rendered.keys()
            );
        };
        assert_eq!(
            normalise(got),
            normalise(want),
            "{platform} {infrastructure}: {key}"
        );
    }

    // The cloud config (issue 4): config/cloud.conf and the cloud-conf ConfigMap hold CCCMO's
    // transform of the source, byte for byte, and the ConfigMap keeps every other source key.
    let expected_conf =
        std::fs::read_to_string(conformance(&format!("{platform}/expected/cloud.conf")))
            .expect("expected cloud.conf");
    let written = String::from_utf8(tree["config/cloud.conf"].clone()).expect("utf8");
    assert_eq!(written, expected_conf, "{platform}: config/cloud.conf");
    let cm = &rendered["ConfigMap/openshift-cloud-controller-manager/cloud-conf"];
    assert_eq!(
        cm["data"]["cloud.conf"],
        expected_conf.as_str(),
        "{platform}: cloud-conf"
    );
    let source = parse_all(
        &std::fs::read_to_string(conformance(&format!(
            "{platform}/cloud-provider-config.yaml"
        )))
        .expect("source"),
    );
    for key in source[0]["data"].as_object().expect("data").keys() {
        if key != "config" {
            assert!(
                cm["data"].get(key).is_some(),
                "{platform}: cloud-conf lacks source key {key}"
            );
        }
    }

    // Determinism: a second run into a fresh directory is byte-identical.
    let again = tempfile::tempdir().expect("tempdir");
    render_case(platform, infrastructure, again.path());
    assert_eq!(
        read_tree(again.path()),
        tree,
        "{platform} {infrastructure}: second run differs"
    );
}

#[test]
fn every_platform_highly_available_matches_cccmo() {
    for platform in PLATFORMS {
        check_case(platform, "infrastructure.yaml", "manifests.yaml");
    }
}

#[test]
fn every_platform_single_replica_matches_cccmo() {
    for platform in PLATFORMS {
        check_case(platform, "infrastructure-sno.yaml", "manifests-sno.yaml");
    }
}
