//! The installer's own unit test of the Infrastructure's topologies
//! (`pkg/asset/manifests/topologies_test.go` `Test_DetermineTopologies`), case by case, with the
//! cases of the releases that have no such test read from `determineTopologies` itself:
//! `testdata/installer-tests/topologies/cases.yaml` (its header says how a case becomes an
//! install-config). Each is rendered through the real command line (`render --install-config
//! … --emit-infrastructure`) at every release it lists, and the emitted status's
//! `controlPlaneTopology` and `infrastructureTopology` must be the test's, or the render refused
//! in one line with nothing written.

use crate::common::*;
use crate::installer_cases::{self, text};
use serde_json::{Value, json};

fn cases_file() -> Value {
    installer_cases::cases_file("topologies")
}

/// The case's install-config: the base with its replicas (and the previews for an arbiter).
fn install_config(base: &Value, case: &Value) -> Value {
    let mut doc = base.clone();
    doc["controlPlane"]["replicas"] = case["controlPlane"].clone();
    doc["compute"] = json!([{"name": "worker", "replicas": case["workers"]}]);
    if let Some(arbiter) = case.get("arbiter") {
        doc["arbiter"] = json!({"name": "arbiter", "replicas": arbiter});
        doc["featureSet"] = json!("TechPreviewNoUpgrade");
    }
    doc
}

/// Renders `doc` at `release`: the exit status, stderr, the emitted Infrastructure's two
/// topologies, and whether anything was written.
fn render(doc: &Value, release: &str) -> (Option<i32>, String, Option<[String; 2]>, bool) {
    let work = tempfile::tempdir().expect("tempdir");
    let file = work.path().join("install-config.yaml");
    std::fs::write(&file, serde_json::to_string(doc).expect("json")).expect("write");
    let dest = work.path().join("out");
    let emit = work.path().join("derived.yaml");
    let images = root().join("testdata/conformance/images.json");
    let args = [
        "render".to_string(),
        "--install-config".into(),
        s(&file).to_string(),
        "--images".into(),
        s(&images).to_string(),
        "--dest-dir".into(),
        s(&dest).to_string(),
        "--infrastructure-name".into(),
        "test-infra-id".into(),
        "--emit-infrastructure".into(),
        s(&emit).to_string(),
        "--release".into(),
        release.into(),
    ];
    let out = ccm_render(&args.iter().map(String::as_str).collect::<Vec<_>>());
    let topologies = std::fs::read_to_string(&emit).ok().map(|t| {
        let infrastructure = parse_all(&t)
            .into_iter()
            .find(|d| d["kind"] == "Infrastructure")
            .expect("an Infrastructure");
        let status = &infrastructure["status"];
        [
            text(status, "controlPlaneTopology").to_string(),
            text(status, "infrastructureTopology").to_string(),
        ]
    });
    let wrote = dest.exists() || emit.exists();
    (out.status.code(), stderr(&out), topologies, wrote)
}

#[test]
fn every_case_renders_the_installers_topologies_at_its_releases() {
    let file = cases_file();
    let base_path = root().join(text(&file["source"], "base"));
    let base = parse_all(&std::fs::read_to_string(base_path).expect("base")).remove(0);
    let cases = file["cases"].as_array().expect("cases");
    let mut runs = 0;
    for case in cases {
        let doc = install_config(&base, case);
        let releases = case["releases"].as_array().expect("releases");
        assert!(!releases.is_empty(), "{case}");
        for release in releases {
            let release = release.as_str().expect("a release");
            let what = format!("{:?} at {release}", text(case, "case"));
            let (code, err, topologies, wrote) = render(&doc, release);
            if let Some(line) = case["refused"].as_str() {
                assert_eq!(code, Some(2), "{what}: {err}");
                assert_eq!(err.trim_end().lines().count(), 1, "{what}: one line: {err}");
                assert!(err.contains(line), "{what}: expected {line:?} in {err}");
                assert!(!wrote, "{what}: something was written");
            } else {
                assert_eq!(code, Some(0), "{what}: {err}");
                let want: Vec<&str> = case["expected"]
                    .as_array()
                    .expect("expected")
                    .iter()
                    .map(|v| v.as_str().expect("a topology"))
                    .collect();
                assert_eq!(topologies.expect("emitted").to_vec(), want, "{what}");
            }
            runs += 1;
        }
    }
    assert!(runs > cases.len(), "{runs} runs");
}

#[test]
fn every_test_case_of_each_version_is_carried_and_the_others_say_what_they_were_read_from() {
    let file = cases_file();
    let source = &file["source"];
    let cases = installer_cases::assert_each_version_is_carried_whole(
        &file,
        "pkg/asset/manifests/topologies_test.go",
        "Test_DetermineTopologies",
        |case| case.get("verified").is_none(),
    );
    for meta in source["versions"].as_object().expect("versions").values() {
        assert!(!text(meta, "commit").is_empty());
    }
    for case in cases {
        let version = text(case, "version");
        if source["versions"].get(version).is_none() {
            assert!(
                text(case, "verified").contains("topolog")
                    || text(case, "verified").contains("installconfig.go"),
                "{case}"
            );
        }
        assert_ne!(
            case.get("expected").is_some(),
            case.get("refused").is_some(),
            "{case}: expected or refused"
        );
    }
}
