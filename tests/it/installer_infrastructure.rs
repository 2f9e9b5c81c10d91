//! The installer's own unit test of the Infrastructure (`pkg/asset/manifests/infrastructure_test.go`
//! `TestGenerateInfrastructure`), case by case: `testdata/installer-tests/infrastructure/`
//! (`cases.yaml`, README.md) holds each case's input as an install-config and its expected
//! Infrastructure exactly as the test builds it. Each is rendered through the real command line
//! (`render --install-config … --emit-infrastructure`) at every release its installer version
//! stands for, and the emitted Infrastructure must be the test's, field for field, but for the
//! fields `cases.yaml` lists with the reason no install-config can give the test's input there;
//! a case no install-config can express is refused as the installer refuses it.

use crate::common::*;
use crate::installer_cases::{self, text};
use pretty_assertions::assert_eq;
use serde_json::Value;
use std::path::{Path, PathBuf};

fn folder() -> PathBuf {
    root().join("testdata/installer-tests/infrastructure")
}

fn cases_file() -> Value {
    installer_cases::cases_file("infrastructure")
}

fn strings(value: &Value) -> Vec<String> {
    value
        .as_array()
        .map(|list| {
            list.iter()
                .map(|v| v.as_str().expect("a string").to_string())
                .collect()
        })
        .unwrap_or_default()
}

/// A flag value naming a file of the repository becomes its path.
fn flag_arg(flag: &str) -> String {
    if flag.starts_with("testdata/") {
        root().join(flag).display().to_string()
    } else {
        flag.to_string()
    }
}

/// Renders a case's install-config at `release` into a fresh folder: the exit status, stderr,
/// the emitted Infrastructure (if any) and whether anything was written.
fn render(case: &Value, release: &str) -> (Option<i32>, String, Option<Value>, bool) {
    let work = tempfile::tempdir().expect("tempdir");
    let dest = work.path().join("out");
    let emit = work.path().join("derived.yaml");
    let install_config = folder().join(text(case, "dir")).join("install-config.yaml");
    let images = root().join("testdata/conformance/images.json");
    let mut args: Vec<String> = [
        "render",
        "--install-config",
        s(&install_config),
        "--images",
        s(&images),
        "--dest-dir",
        s(&dest),
        "--infrastructure-name",
        "test-infra-id",
        "--emit-infrastructure",
        s(&emit),
        "--release",
        release,
    ]
    .iter()
    .map(ToString::to_string)
    .collect();
    args.extend(strings(&case["flags"]).iter().map(|f| flag_arg(f)));
    let out = ccm_render(&args.iter().map(String::as_str).collect::<Vec<_>>());
    let infrastructure = std::fs::read_to_string(&emit).ok().map(|t| {
        parse_all(&t)
            .into_iter()
            .find(|d| d["kind"] == "Infrastructure")
            .expect("an Infrastructure")
    });
    let wrote = dest.exists() || emit.exists();
    (out.status.code(), stderr(&out), infrastructure, wrote)
}

/// `value` with the field at the dotted `path` set to `to`.
fn set(value: &mut Value, path: &str, to: Value) {
    let mut here = value;
    for key in path.split('.') {
        here = here
            .as_object_mut()
            .unwrap_or_else(|| panic!("{path}: {key} is under a non-object"))
            .entry(key)
            .or_insert(Value::Null);
    }
    *here = to;
}

/// The test's expected Infrastructure with the case's deviations applied.
fn expected(case: &Value) -> Value {
    let path: &Path = &folder().join(text(case, "dir"));
    let text_of = std::fs::read_to_string(path.join("expected-infrastructure.yaml"))
        .expect("expected-infrastructure.yaml");
    let mut want = parse_all(&text_of).remove(0);
    for deviation in case["deviations"].as_array().into_iter().flatten() {
        set(
            &mut want,
            text(deviation, "path"),
            deviation["value"].clone(),
        );
    }
    want
}

#[test]
fn every_case_renders_the_installers_expected_infrastructure_at_its_releases() {
    let file = cases_file();
    let cases = file["cases"].as_array().expect("cases");
    let mut runs = 0;
    for case in cases {
        let dir = text(case, "dir");
        let releases = strings(&case["releases"]);
        assert!(!releases.is_empty(), "{dir}: no release");
        for release in &releases {
            let (code, err, infrastructure, wrote) = render(case, release);
            let what = format!("{dir} ({:?}) at {release}", text(case, "case"));
            if let Some(line) = case["refused"].as_str() {
                assert_eq!(code, Some(2), "{what}: {err}");
                assert_eq!(err.trim_end().lines().count(), 1, "{what}: one line: {err}");
                assert!(err.contains(line), "{what}: expected {line:?} in {err}");
                assert!(!wrote, "{what}: something was written");
            } else {
                assert_eq!(code, Some(0), "{what}: {err}");
                assert_eq!(infrastructure.expect("emitted"), expected(case), "{what}");
            }
            runs += 1;
        }
    }
    assert!(runs >= cases.len(), "{runs} runs");
}

#[test]
fn every_case_says_where_it_comes_from_and_why_it_deviates() {
    let file = cases_file();
    let source = &file["source"];
    // Every case of the installer's test of each version is carried.
    let cases = installer_cases::assert_each_version_is_carried_whole(
        &file,
        "pkg/asset/manifests/infrastructure_test.go",
        "TestGenerateInfrastructure",
        |_| true,
    );
    for meta in source["versions"].as_object().expect("versions").values() {
        assert!(!text(meta, "index").is_empty() && !text(meta, "identified_by").is_empty());
    }
    for case in cases {
        let dir = folder().join(text(case, "dir"));
        assert!(dir.join("install-config.yaml").exists(), "{dir:?}");
        assert_eq!(
            dir.join("expected-infrastructure.yaml").exists(),
            case.get("refused").is_none(),
            "{dir:?}: an expected Infrastructure exactly when the case is not refused"
        );
        for deviation in case["deviations"].as_array().into_iter().flatten() {
            assert!(text(deviation, "why").len() > 40, "{dir:?}: {deviation}");
            assert!(deviation.get("value").is_some(), "{dir:?}: {deviation}");
        }
    }
}

#[test]
fn a_case_of_one_release_is_not_the_installer_of_another() {
    // The 4.19 test's vSphere Infrastructure (singular status VIPs, no nodeNetworking) is not
    // what 4.21 writes, the later test's AWS and Azure ones (ipFamily) not what 4.21 writes, nor
    // the 4.20 test's Azure one (cloudLoadBalancerConfig) what 4.19 writes: the comparison above
    // depends on the release.
    let cases = cases_file();
    let by_dir = |dir: &str| {
        cases["cases"]
            .as_array()
            .expect("cases")
            .iter()
            .find(|c| text(c, "dir") == dir)
            .expect("the case")
            .clone()
    };
    for (dir, other) in [
        ("v4.19/vsphere-vips-appended", "4.21"),
        ("v4.22/vanilla-aws", "4.21"),
        ("v4.22/default-azure-custom-dns", "4.21"),
        ("v4.20/default-azure-custom-dns", "4.19"),
    ] {
        let case = by_dir(dir);
        let (code, err, infrastructure, _) = render(&case, other);
        assert_eq!(code, Some(0), "{dir} at {other}: {err}");
        assert_ne!(
            infrastructure.expect("emitted"),
            expected(&case),
            "{dir} at {other}"
        );
    }
}
