//! Helpers shared by the integration tests: running the binary, reading a rendered tree and
//! normalising objects the way `testdata/conformance/README.md` defines equality.

use serde_json::Value;
use std::collections::BTreeMap;
use std::os::unix::fs::PermissionsExt as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// A path as the text of an argument (the tests' paths are UTF-8).
pub fn s(path: &Path) -> &str {
    path.to_str().expect("utf-8 path")
}

/// A copy of `from` at `to`.
pub fn copy_tree(from: &Path, to: &Path) {
    for (rel, bytes) in read_tree(from) {
        let path = to.join(rel);
        std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
        std::fs::write(path, bytes).expect("write");
    }
}

/// The repository root.
pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// A path under testdata/conformance.
pub fn conformance(rel: &str) -> PathBuf {
    root().join("testdata/conformance").join(rel)
}

/// The ccm-render binary the tests run: the one `CCM_RENDER_BINARY` names (scripts/test names
/// the shipped x86_64 release build, so that the tests hold what ships, at its speed: a
/// matrix of every release takes a thirteenth of the CPU time the debug build takes), else
/// the one cargo built for this test run.
pub fn binary() -> PathBuf {
    std::env::var_os("CCM_RENDER_BINARY").map_or_else(
        || PathBuf::from(env!("CARGO_BIN_EXE_ccm-render")),
        PathBuf::from,
    )
}

/// Runs the ccm-render binary.
pub fn ccm_render(args: &[&str]) -> Output {
    Command::new(binary())
        .args(args)
        .env_remove("NO_COLOR")
        .output()
        .expect("the binary runs")
}

/// A run's stderr, as text.
pub fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// Runs `run` against the output directory `dest` and checks the bad-input contract: exit 2,
/// at most three lines on stderr starting with `error: ` and holding `message`, and `dest`
/// exactly as it was. Returns stderr for further checks.
pub fn assert_refused_untouched(
    dest: &Path,
    run: impl FnOnce() -> Output,
    message: &str,
) -> String {
    let before = read_tree(dest);
    let out = run();
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(2), "{message}: {err}");
    assert!(err.starts_with("error: "), "{err}");
    assert!(err.contains(message), "expected {message:?} in {err}");
    assert!(err.lines().count() <= 3, "{err}");
    assert_eq!(read_tree(dest), before, "dest dir changed: {message}");
    err
}

/// What a file-system entry is, for comparing trees: contents and mode for files, the target
/// for links, the mode for folders.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Entry {
    File(Vec<u8>, u32),
    Link(PathBuf),
    Dir(u32),
}

/// Every entry under `dir` (not following links), by path relative to it: what a run must
/// leave exactly as it was, or exactly as a render lays it down.
pub fn snapshot(dir: &Path) -> BTreeMap<String, Entry> {
    let mut out = BTreeMap::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d).expect("readable dir") {
            let path = entry.expect("entry").path();
            let rel = path
                .strip_prefix(dir)
                .expect("under dir")
                .to_string_lossy()
                .into_owned();
            let meta = std::fs::symlink_metadata(&path).expect("metadata");
            let mode = meta.permissions().mode() & 0o7777;
            let entry = if meta.file_type().is_symlink() {
                Entry::Link(std::fs::read_link(&path).expect("link"))
            } else if meta.is_dir() {
                stack.push(path.clone());
                Entry::Dir(mode)
            } else {
                Entry::File(std::fs::read(&path).expect("readable"), mode)
            };
            out.insert(rel, entry);
        }
    }
    out
}

/// The entries under `dir` that ccm-render makes while it
/// works: the journal, temporary files, staging folders, and older releases' lock file. A
/// run that ended well leaves none, so a tree holds the render and nothing else.
pub fn files_of_ccm_render(dir: &Path) -> Vec<String> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&d) else {
            continue;
        };
        for entry in entries {
            let path = entry.expect("entry").path();
            let name = path.file_name().unwrap_or_default().to_string_lossy();
            if name.starts_with(".ccm-render") {
                out.push(path.display().to_string());
            }
            if path.symlink_metadata().is_ok_and(|m| m.is_dir()) {
                stack.push(path);
            }
        }
    }
    out.sort();
    out
}

/// Every file under `dir`, by path relative to it.
pub fn read_tree(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    let mut out = BTreeMap::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d).expect("readable dir") {
            let path = entry.expect("entry").path();
            if path.is_dir() {
                stack.push(path);
            } else {
                let rel = path
                    .strip_prefix(dir)
                    .expect("under dir")
                    .to_string_lossy()
                    .into_owned();
                out.insert(rel, std::fs::read(&path).expect("readable file"));
            }
        }
    }
    out
}

/// Parses a YAML stream into its documents.
pub fn parse_all(text: &str) -> Vec<Value> {
    ccm_catalogue::yaml::documents(text).expect("valid YAML")
}

/// `kind/namespace/name` of an object.
pub fn key_of(object: &Value) -> String {
    let s = |p: &str| {
        object
            .pointer(p)
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_string()
    };
    format!(
        "{}/{}/{}",
        s("/kind"),
        s("/metadata/namespace"),
        s("/metadata/name")
    )
}

/// Normalises an object as the conformance README says: `status` and
/// `metadata.creationTimestamp` dropped, nulls and empty maps and lists dropped, container
/// scripts compared token by token, and the reference's two known defects (Service
/// `apiVersion: core/v1`, ValidatingAdmissionPolicies declared `v1beta1`) read as `v1`.
pub fn normalise(object: &Value) -> Value {
    let mut object = object.clone();
    if let Some(map) = object.as_object_mut() {
        map.remove("status");
        if let Some(meta) = map.get_mut("metadata").and_then(Value::as_object_mut) {
            meta.remove("creationTimestamp");
        }
        let fixed = match map.get("apiVersion").and_then(Value::as_str) {
            Some("core/v1") => Some("v1"),
            Some("admissionregistration.k8s.io/v1beta1") => Some("admissionregistration.k8s.io/v1"),
            _ => None,
        };
        if let Some(v) = fixed {
            map.insert("apiVersion".into(), Value::String(v.into()));
        }
    }
    prune(tokenise_scripts(object)).unwrap_or(Value::Null)
}

fn tokenise_scripts(value: Value) -> Value {
    match value {
        Value::Object(map) => Value::Object(
            map.into_iter()
                .map(|(k, v)| {
                    let v = if k == "command" || k == "args" {
                        tokenise_list(v)
                    } else {
                        tokenise_scripts(v)
                    };
                    (k, v)
                })
                .collect(),
        ),
        Value::Array(items) => Value::Array(items.into_iter().map(tokenise_scripts).collect()),
        other => other,
    }
}

fn tokenise_list(value: Value) -> Value {
    match value {
        Value::Array(items) => Value::Array(
            items
                .into_iter()
                .map(|item| match item {
                    Value::String(s) if s.contains('\n') => Value::Array(
                        s.split_whitespace()
                            .filter(|t| *t != "\\")
                            .map(|t| Value::String(t.to_string()))
                            .collect(),
                    ),
                    other => other,
                })
                .collect(),
        ),
        other => other,
    }
}

fn prune(value: Value) -> Option<Value> {
    match value {
        Value::Null => None,
        Value::Object(map) => {
            let map: serde_json::Map<String, Value> = map
                .into_iter()
                .filter_map(|(k, v)| prune(v).map(|v| (k, v)))
                .collect();
            (!map.is_empty()).then_some(Value::Object(map))
        }
        Value::Array(items) => {
            let items: Vec<Value> = items.into_iter().filter_map(prune).collect();
            (!items.is_empty()).then_some(Value::Array(items))
        }
        other => Some(other),
    }
}

/// Every object in a rendered folder, by key.
pub fn objects_in(tree: &BTreeMap<String, Vec<u8>>, folder: &str) -> BTreeMap<String, Value> {
    tree.iter()
        .filter(|(path, _)| path.starts_with(&format!("{folder}/")))
        .flat_map(|(_, bytes)| parse_all(std::str::from_utf8(bytes).expect("UTF-8")))
        .map(|o| (key_of(&o), o))
        .collect()
}

/// The nine platforms of the conformance cases.
pub const PLATFORMS: [&str; 9] = [
    "aws",
    "azure",
    "azurestackhub",
    "gcp",
    "ibmcloud",
    "nutanix",
    "openstack",
    "powervs",
    "vsphere",
];

/// A conformance case's input flags, each with its path: `--infrastructure`, `--cloud-config`,
/// `--images` and `--network`.
pub fn conformance_inputs(platform: &str) -> Vec<String> {
    let flag = |name: &str, rel: &str| {
        let path = conformance(rel);
        format!("--{name}={}", path.to_str().expect("UTF-8"))
    };
    vec![
        flag("infrastructure", &format!("{platform}/infrastructure.yaml")),
        flag(
            "cloud-config",
            &format!("{platform}/cloud-provider-config.yaml"),
        ),
        flag("images", "images.json"),
        flag("network", "network.yaml"),
    ]
}

/// Renders a conformance case with extra flags into `dest`; returns the process output.
pub fn render_conformance(
    platform: &str,
    infrastructure: &str,
    extra: &[&str],
    dest: &Path,
) -> Output {
    let infra = conformance(&format!("{platform}/{infrastructure}"));
    let images = conformance("images.json");
    let cloud = conformance(&format!("{platform}/cloud-provider-config.yaml"));
    let network = conformance("network.yaml");
    let mut args: Vec<&str> = vec![
        "render",
        "--infrastructure",
        infra.to_str().expect("utf8"),
        "--images",
        images.to_str().expect("utf8"),
        "--cloud-config",
        cloud.to_str().expect("utf8"),
        "--network",
        network.to_str().expect("utf8"),
        "--dest-dir",
        dest.to_str().expect("utf8"),
    ];
    args.extend_from_slice(extra);
    ccm_render(&args)
}

/// A file under testdata/variants.
pub fn variant(rel: &str) -> PathBuf {
    root().join("testdata/variants").join(rel)
}

/// A path under testdata/external (the External-platform inputs).
pub fn external(rel: &str) -> PathBuf {
    root().join("testdata/external").join(rel)
}

/// Renders an External case: `infrastructure` and `cloud_config` under testdata/external, its
/// images.json, plus `extra` arguments.
pub fn render_external(
    infrastructure: &str,
    cloud_config: Option<&str>,
    extra: &[&str],
    dest: &Path,
) -> Output {
    let infra = external(infrastructure);
    let images = external("images.json");
    let cloud = cloud_config.map(external);
    let mut args: Vec<&str> = vec![
        "render",
        "--infrastructure",
        infra.to_str().expect("utf8"),
        "--images",
        images.to_str().expect("utf8"),
        "--dest-dir",
        dest.to_str().expect("utf8"),
    ];
    if let Some(cloud) = &cloud {
        args.extend(["--cloud-config", cloud.to_str().expect("utf8")]);
    }
    args.extend_from_slice(extra);
    ccm_render(&args)
}

/// An External platform case: a provider and its inputs under `testdata/external/`.
pub struct ExternalCase {
    /// The built-in provider.
    pub provider: &'static str,
    /// Its Infrastructure file.
    pub infrastructure: &'static str,
    /// Its cloud config file.
    pub cloud_config: &'static str,
    /// The kubelet's `--cloud-provider` value.
    pub cloud_provider: &'static str,
}

/// The External cases.
pub const EXTERNAL_CASES: [ExternalCase; 2] = [
    ExternalCase {
        provider: "oci",
        infrastructure: "infrastructure-oci.yaml",
        cloud_config: "oci-cloud-provider.yaml",
        cloud_provider: "oci",
    },
    ExternalCase {
        provider: "alicloud",
        infrastructure: "infrastructure-alibaba.yaml",
        cloud_config: "alibaba-cloud-provider-config.yaml",
        cloud_provider: "alicloud",
    },
];
