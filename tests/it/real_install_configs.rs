//! The corpus of real install-configs (`testdata/install-config/real/`, collected from the
//! installer's docs, openshift-docs and the CI step registry; `SOURCES.md` says where each comes
//! from): every file through the real command line, `render --install-config` with the
//! cloud-only flags its platform needs, giving the outcome the installer gives
//! (`expectations.yaml`): rendered, refused naming the field (exit 2, one line, nothing
//! written), or nothing to render.

use crate::common::*;
use serde_json::Value;
use std::collections::BTreeSet;
use std::path::PathBuf;

fn corpus() -> PathBuf {
    root().join("testdata/install-config/real")
}

struct Expectation {
    file: String,
    platform: String,
    outcome: String,
    field: Option<String>,
    flags: Vec<String>,
}

fn expectations() -> Vec<Expectation> {
    let text = std::fs::read_to_string(corpus().join("expectations.yaml")).expect("readable");
    let list = parse_all(&text).remove(0);
    let text_of =
        |entry: &Value, key: &str| entry.get(key).and_then(Value::as_str).map(String::from);
    list.as_array()
        .expect("a list")
        .iter()
        .map(|entry| Expectation {
            file: text_of(entry, "file").expect("file"),
            platform: text_of(entry, "platform").expect("platform"),
            outcome: text_of(entry, "outcome").expect("outcome"),
            field: text_of(entry, "field"),
            flags: entry
                .get("flags")
                .and_then(Value::as_array)
                .map(|flags| {
                    flags
                        .iter()
                        .map(|f| f.as_str().expect("a string").to_string())
                        .collect()
                })
                .unwrap_or_default(),
        })
        .collect()
}

/// The platform an install-config is for, as `expectations.yaml` names it.
fn platform_of(file: &str) -> String {
    let text = std::fs::read_to_string(corpus().join(file)).expect("readable");
    let doc = parse_all(&text).remove(0);
    let platform = doc["platform"].as_object().expect("a platform section");
    let (key, value) = platform.iter().next().expect("one platform");
    let key = key.to_lowercase();
    if key == "azure" && value.get("cloudName").and_then(Value::as_str) == Some("AzureStackCloud") {
        return "azurestackhub".into();
    }
    key
}

/// A flag value naming a file of the repository becomes its path.
fn flag_arg(flag: &str) -> String {
    if flag.starts_with("testdata/") {
        root().join(flag).display().to_string()
    } else {
        flag.to_string()
    }
}

#[test]
fn the_corpus_covers_every_platform_and_lists_every_file_once() {
    let list = expectations();
    assert!(list.len() >= 40, "{} files", list.len());
    let listed: BTreeSet<String> = list.iter().map(|e| e.file.clone()).collect();
    assert_eq!(listed.len(), list.len(), "a file listed twice");
    let on_disk: BTreeSet<String> = std::fs::read_dir(corpus())
        .expect("readable")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .filter(|name| {
            std::path::Path::new(name)
                .extension()
                .is_some_and(|ext| ext.eq_ignore_ascii_case("yaml"))
                && name != "expectations.yaml"
        })
        .collect();
    assert_eq!(listed, on_disk);
    let sources = std::fs::read_to_string(corpus().join("SOURCES.md")).expect("readable");
    for e in &list {
        assert_eq!(platform_of(&e.file), e.platform, "{}", e.file);
        assert!(
            sources.contains(&format!("`{}`", e.file)),
            "{} not in SOURCES.md",
            e.file
        );
        assert!(
            matches!(e.outcome.as_str(), "rendered" | "refused" | "nothing"),
            "{}: {}",
            e.file,
            e.outcome
        );
        assert_eq!(e.field.is_some(), e.outcome == "refused", "{}", e.file);
    }
    let platforms: BTreeSet<&str> = list.iter().map(|e| e.platform.as_str()).collect();
    for want in [
        "aws",
        "azure",
        "azurestackhub",
        "gcp",
        "ibmcloud",
        "powervs",
        "openstack",
        "vsphere",
        "nutanix",
        "external",
    ] {
        assert!(
            list.iter()
                .any(|e| e.platform == want && e.outcome == "rendered"),
            "no rendered {want} file"
        );
    }
    assert!(
        platforms.contains("baremetal") && platforms.contains("none"),
        "{platforms:?}"
    );
}

#[test]
fn every_real_install_config_gives_the_installers_outcome() {
    let images = conformance("images.json").display().to_string();
    for e in expectations() {
        let work = tempfile::tempdir().expect("tempdir");
        let dest = work.path().join("out");
        std::fs::create_dir(&dest).expect("mkdir");
        std::fs::write(dest.join("README"), "not ours\n").expect("write");
        let before = read_tree(&dest);
        let file = corpus().join(&e.file).display().to_string();
        let dest_arg = dest.display().to_string();
        let mut args = vec![
            "render".to_string(),
            "--install-config".into(),
            file,
            "--images".into(),
            images.clone(),
            "--infrastructure-name".into(),
            "real-abcde".into(),
            "--dest-dir".into(),
            dest_arg,
        ];
        args.extend(e.flags.iter().map(|f| flag_arg(f)));
        let out = ccm_render(&args.iter().map(String::as_str).collect::<Vec<_>>());
        let err = stderr(&out);
        let mut after = read_tree(&dest);
        after.remove("README");
        match e.outcome.as_str() {
            "rendered" => {
                assert_eq!(out.status.code(), Some(0), "{}: {err}", e.file);
                assert!(
                    after.keys().any(|k| k.starts_with("bootstrap/pod-")),
                    "{}: no bootstrap pod in {:?}",
                    e.file,
                    after.keys()
                );
            }
            "nothing" => {
                assert_eq!(out.status.code(), Some(0), "{}: {err}", e.file);
                assert!(after.is_empty(), "{}: {:?}", e.file, after.keys());
            }
            _ => {
                let field = e.field.as_deref().expect("a field");
                assert_eq!(out.status.code(), Some(2), "{}: {err}", e.file);
                assert_eq!(err.trim_end().lines().count(), 1, "{}: {err}", e.file);
                assert!(
                    err.contains(&format!(": {field}: ")),
                    "{}: expected the field {field} in {err}",
                    e.file
                );
                assert_eq!(read_tree(&dest), before, "{}: dest dir changed", e.file);
            }
        }
    }
}
