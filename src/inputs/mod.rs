//! Reading the input files: one submodule per input kind, each returning a small typed struct.
//!
//! This module owns the rules every input shares: a size limit, UTF-8, YAML or JSON in a
//! single- or multi-document stream, and picking the wanted object out of that stream by kind.
//! Errors name the file (and the field where there is one). Nothing here knows about providers.

pub mod cloud_provider_config;
pub mod credentials;
pub(crate) mod hosted_cluster;
pub(crate) mod hosted_control_plane;
pub mod images;
pub mod infrastructure;
pub(crate) mod payload_images;
pub mod proxy;

use anyhow::{Context as _, Result, anyhow, bail};
use camino::Utf8Path;
use ccm_catalogue::json_fields::{kind_of, name_of};
use serde_json::Value;
use std::io::Read as _;

/// The largest input file accepted. Real inputs are a few kilobytes; a whole
/// `openshift-install create manifests` stream is well under a megabyte.
pub const MAX_INPUT_BYTES: u64 = 16 * 1024 * 1024;

/// Reads an input file as UTF-8 text, refusing anything larger than [`MAX_INPUT_BYTES`] without
/// reading it whole.
pub(crate) fn read_text(path: &Utf8Path) -> Result<String> {
    let file = std::fs::File::open(path).with_context(|| format!("{path}: cannot open"))?;
    let meta = file
        .metadata()
        .with_context(|| format!("{path}: cannot read metadata"))?;
    if meta.is_dir() {
        bail!("{path}: is a directory, expected a file");
    }
    // Room for the whole file (and the one byte that shows it grew past the limit) up front:
    // `read_to_end` behind `take` knows no size and starts with 32-byte reads, a dozen system
    // calls for a 2 kB file.
    let expected = usize::try_from(meta.len().min(MAX_INPUT_BYTES)).unwrap_or_default();
    let mut bytes = Vec::with_capacity(expected + 1);
    file.take(MAX_INPUT_BYTES + 1)
        .read_to_end(&mut bytes)
        .with_context(|| format!("{path}: cannot read"))?;
    if bytes.len() as u64 > MAX_INPUT_BYTES {
        bail!(
            "{path}: larger than the {} MiB input limit",
            MAX_INPUT_BYTES / (1024 * 1024)
        );
    }
    String::from_utf8(bytes).map_err(|_| anyhow!("{path}: is not UTF-8 text"))
}

/// Parses an input's text into its YAML/JSON documents.
pub fn parse_documents(text: &str, path: &Utf8Path) -> Result<Vec<Value>> {
    ccm_catalogue::yaml::documents(text).with_context(|| format!("{path}: not valid YAML or JSON"))
}

/// Picks the one object of `kind` out of a document stream. When the stream holds several, the
/// one whose name is in `preferred_names` (in that order) wins; otherwise it is ambiguous.
pub fn pick_object(
    docs: Vec<Value>,
    kind: &str,
    preferred_names: &[&str],
    path: &Utf8Path,
) -> Result<Value> {
    let found: Vec<String> = docs.iter().map(|d| kind_of(d).to_string()).collect();
    let mut candidates: Vec<Value> = docs.into_iter().filter(|d| kind_of(d) == kind).collect();
    match candidates.len() {
        0 => {
            let mut kinds: Vec<&str> = found.iter().map(String::as_str).collect();
            kinds.sort_unstable();
            kinds.dedup();
            let kinds: Vec<String> = kinds
                .into_iter()
                .map(|k| {
                    if k.is_empty() {
                        "an object with no kind".to_string()
                    } else {
                        shown(k)
                    }
                })
                .collect();
            if kinds.is_empty() {
                bail!("{path}: no {kind} object (the file holds no document)");
            }
            bail!(
                "{path}: no {kind} object (the file holds {})",
                kinds.join(", ")
            )
        }
        1 => Ok(candidates.remove(0)),
        _ => {
            for wanted in preferred_names {
                if let Some(i) = candidates.iter().position(|d| name_of(d) == *wanted) {
                    return Ok(candidates.swap_remove(i));
                }
            }
            let names: Vec<String> = candidates.iter().map(|d| shown(name_of(d))).collect();
            bail!(
                "{path}: {} {kind} objects ({}); keep only the one to use",
                candidates.len(),
                names.join(", ")
            )
        }
    }
}

/// An identifier read from an input, as an error message shows it: as it is when it looks like
/// one (`ConfigMap`, `cloud-provider-config`), quoted and escaped otherwise, so that no input can
/// put a line break (a forged `error:` line) or terminal control characters on stderr.
pub(crate) fn shown(identifier: &str) -> String {
    if !identifier.is_empty()
        && identifier
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"-._/:".contains(&b))
    {
        identifier.to_string()
    } else {
        format!("{identifier:?}")
    }
}

/// Checks that an object's `apiVersion` is `group/version` for a known version (an empty group
/// means the core group, written as the bare version).
pub fn check_api_version(
    doc: &Value,
    group: &str,
    versions: &[&str],
    path: &Utf8Path,
) -> Result<()> {
    let got = doc
        .get("apiVersion")
        .and_then(Value::as_str)
        .unwrap_or_default();
    let ok = versions.iter().any(|v| {
        if group.is_empty() {
            got == *v
        } else {
            got == format!("{group}/{v}")
        }
    });
    if !ok {
        let want: Vec<String> = versions
            .iter()
            .map(|v| {
                if group.is_empty() {
                    (*v).to_string()
                } else {
                    format!("{group}/{v}")
                }
            })
            .collect();
        bail!(
            "{path}: apiVersion {got:?} is not {} for kind {}",
            want.join(" or "),
            kind_of(doc)
        );
    }
    Ok(())
}

/// Reads a file and returns the one object of `kind` (group `group`) it holds.
pub(crate) fn load_object(
    path: &Utf8Path,
    kind: &str,
    group: &str,
    versions: &[&str],
    preferred_names: &[&str],
) -> Result<Value> {
    let text = read_text(path)?;
    object_from_text(&text, path, kind, group, versions, preferred_names)
}

/// [`load_object`] on text already read (`path` only names it in errors); the fuzz targets
/// call it directly.
pub fn object_from_text(
    text: &str,
    path: &Utf8Path,
    kind: &str,
    group: &str,
    versions: &[&str],
    preferred_names: &[&str],
) -> Result<Value> {
    let docs = parse_documents(text, path)?;
    let doc = pick_object(docs, kind, preferred_names, path)?;
    check_api_version(&doc, group, versions, path)?;
    Ok(doc)
}

/// Reads an optional `config.openshift.io/v1` object (FeatureGate, APIServer, Network) whole,
/// for the modules that interpret it.
pub(crate) fn load_config_object(path: Option<&Utf8Path>, kind: &str) -> Result<Option<Value>> {
    path.map(|p| load_object(p, kind, "config.openshift.io", &["v1"], &["cluster"]))
        .transpose()
}

#[cfg(test)]
mod tests {
    use super::*;
    use ccm_catalogue::json_fields::typed;
    use serde_json::json;

    fn p() -> &'static Utf8Path {
        Utf8Path::new("in.yaml")
    }

    #[test]
    fn pick_object_finds_the_kind_among_others() {
        let docs = vec![
            json!({"kind": "ConfigMap"}),
            json!({"kind": "Proxy", "x": 1}),
        ];
        assert_eq!(pick_object(docs, "Proxy", &[], p()).expect("found")["x"], 1);
    }

    #[test]
    fn pick_object_names_what_the_file_holds_when_kind_is_missing() {
        let docs = vec![json!({"kind": "ConfigMap"}), json!({"kind": "Secret"})];
        let err = pick_object(docs, "Proxy", &[], p()).expect_err("missing");
        assert_eq!(
            format!("{err:#}"),
            "in.yaml: no Proxy object (the file holds ConfigMap, Secret)"
        );
    }

    #[test]
    fn identifiers_from_the_input_cannot_break_the_error_line() {
        let docs = vec![json!({"kind": "Proxy\nerror: forged"})];
        let err = pick_object(docs, "Infrastructure", &[], p()).expect_err("missing");
        assert_eq!(
            format!("{err:#}"),
            "in.yaml: no Infrastructure object (the file holds \"Proxy\\nerror: forged\")"
        );
        let docs = vec![
            json!({"kind": "Proxy", "metadata": {"name": "a\u{1b}[2J"}}),
            json!({"kind": "Proxy", "metadata": {"name": "b"}}),
        ];
        let err = pick_object(docs, "Proxy", &[], p()).expect_err("ambiguous");
        assert!(
            format!("{err:#}").contains("2 Proxy objects (\"a\\u{1b}[2J\", b)"),
            "{err}"
        );
    }

    #[test]
    fn pick_object_prefers_the_named_object_among_several() {
        let docs = vec![
            json!({"kind": "ConfigMap", "metadata": {"name": "other"}}),
            json!({"kind": "ConfigMap", "metadata": {"name": "cloud-provider-config"}}),
        ];
        let doc = pick_object(docs, "ConfigMap", &["cloud-provider-config"], p()).expect("found");
        assert_eq!(name_of(&doc), "cloud-provider-config");
    }

    #[test]
    fn pick_object_refuses_an_ambiguous_stream() {
        let docs = vec![
            json!({"kind": "ConfigMap", "metadata": {"name": "a"}}),
            json!({"kind": "ConfigMap", "metadata": {"name": "b"}}),
        ];
        let err = pick_object(docs, "ConfigMap", &["c"], p()).expect_err("ambiguous");
        assert!(
            format!("{err:#}").contains("2 ConfigMap objects (a, b)"),
            "{err}"
        );
    }

    #[test]
    fn wrong_api_version_is_named() {
        let doc = json!({"apiVersion": "config.openshift.io/v2", "kind": "Proxy"});
        let err = check_api_version(&doc, "config.openshift.io", &["v1"], p()).expect_err("bad");
        assert!(
            format!("{err:#}").contains("\"config.openshift.io/v2\""),
            "{err}"
        );
    }

    #[test]
    fn typed_errors_name_the_field() {
        #[derive(serde::Deserialize, Debug)]
        #[allow(dead_code)]
        struct S {
            status: Status,
        }
        #[derive(serde::Deserialize, Debug)]
        #[allow(dead_code)]
        struct Status {
            name: String,
        }
        let err = typed::<S>(&json!({"status": {"name": 3}}), p()).expect_err("wrong type");
        assert!(
            format!("{err:#}").starts_with("in.yaml: status.name: invalid type"),
            "{err}"
        );
    }

    #[test]
    fn typed_errors_escape_a_field_path_with_line_breaks() {
        #[derive(serde::Deserialize, Debug)]
        #[allow(dead_code)]
        struct S {
            data: std::collections::BTreeMap<String, String>,
        }
        // Found by the cloud_provider_config fuzz target: a ConfigMap data key with a newline.
        let err = typed::<S>(&json!({"data": {"a\nerror: forged": null}}), p())
            .expect_err("null is not a string");
        assert!(
            format!("{err:#}")
                .starts_with("in.yaml: \"data.a\\nerror: forged\": invalid type: null"),
            "{err}"
        );
    }

    #[test]
    fn oversized_input_is_refused_without_reading_it_all() {
        let dir = tempfile::tempdir().expect("tempdir");
        let file = dir.path().join("big.yaml");
        let f = std::fs::File::create(&file).expect("create");
        f.set_len(MAX_INPUT_BYTES + 10).expect("grow");
        let path = Utf8Path::from_path(&file).expect("utf8");
        let err = read_text(path).expect_err("too big");
        assert!(format!("{err:#}").contains("16 MiB input limit"), "{err}");
    }
}
