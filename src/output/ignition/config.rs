//! Writing: a [`Tree`] in, the bytes of an Ignition config out.

use crate::output::Tree;
use crate::output::placement::{self, Placed};
use anyhow::Result;
use base64::Engine as _;
use serde_json::{Value, json};
use std::collections::BTreeMap;
use std::io::Write as _;

/// The Ignition spec versions `--ignition-version` offers: the stable 3.x specs an OpenShift
/// installer has written or may write for RHCOS.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, clap::ValueEnum)]
pub(crate) enum Version {
    // Spec 3.1.0 (no doc comment: clap would list it as the value's help).
    #[value(name = "3.1.0")]
    V3_1,
    // Spec 3.2.0 (no doc comment: clap would list it as the value's help).
    #[value(name = "3.2.0")]
    V3_2,
    // Spec 3.3.0 (no doc comment: clap would list it as the value's help).
    #[value(name = "3.3.0")]
    V3_3,
    // Spec 3.4.0 (no doc comment: clap would list it as the value's help).
    #[value(name = "3.4.0")]
    V3_4,
}

impl Version {
    /// The `ignition.version` string.
    pub(crate) fn as_str(self) -> &'static str {
        match self {
            Self::V3_1 => "3.1.0",
            Self::V3_2 => "3.2.0",
            Self::V3_3 => "3.3.0",
            Self::V3_4 => "3.4.0",
        }
    }
}

impl std::fmt::Display for Version {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The version written without `--ignition-version`, for a render of `release` (`X.Y`, as
/// `--release` resolves it). Every release ccm-render renders (4.18 to 4.23, and 5.0/5.1 as
/// 4.23) has an installer that writes spec 3.2.0 for RHCOS (installer pkg/asset/ignition:
/// `igntypes "github.com/coreos/ignition/v2/config/v3_2/types"`); a release whose installer
/// writes another spec gets its row in [`VERSION_BY_RELEASE`].
pub(crate) fn default_version(release: &str) -> Version {
    VERSION_BY_RELEASE
        .iter()
        .find(|(name, _)| *name == release)
        .map_or(Version::V3_2, |(_, version)| *version)
}

/// The spec each release's installer writes for RHCOS (see [`default_version`]).
pub(crate) const VERSION_BY_RELEASE: &[(&str, Version)] = &[
    ("4.18", Version::V3_2),
    ("4.19", Version::V3_2),
    ("4.20", Version::V3_2),
    ("4.21", Version::V3_2),
    ("4.22", Version::V3_2),
    ("4.23", Version::V3_2),
];

/// What to put in the fragment.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Options {
    /// `ignition.version`.
    pub(crate) version: Version,
    /// Also the post-install manifests (`--ignition-manifests`).
    pub(crate) manifests: bool,
}

/// Owner and group of every entry: root, by id, so that applying the fragment needs no
/// passwd lookup in the target root.
fn root_id() -> Value {
    json!({"id": 0})
}

/// The Ignition config for `tree`: one `storage.files` entry per placed file (sorted by node
/// path), one `storage.directories` entry per target folder in use (its mode from the map),
/// pretty-printed with a final newline. Deterministic: the same tree gives the same bytes.
pub(crate) fn config(tree: &Tree, options: Options) -> Result<Vec<u8>> {
    let mut placed = placement::place_tree(tree, options.manifests);
    placed.sort_by(|(a, _), (b, _)| a.target.cmp(&b.target));
    let mut folders: BTreeMap<String, u32> = BTreeMap::new();
    for (file, _) in &placed {
        if let Some(parent) = file.target.parent() {
            folders.insert(parent.to_string(), file.dir_mode);
        }
    }
    let directories: Vec<Value> = folders
        .iter()
        .map(|(path, mode)| {
            json!({
                "path": path,
                "mode": mode,
                "user": root_id(),
                "group": root_id(),
            })
        })
        .collect();
    let files = placed
        .iter()
        .map(|(file, bytes)| file_entry(file, bytes))
        .collect::<Result<Vec<Value>>>()?;
    let mut storage = serde_json::Map::new();
    if !directories.is_empty() {
        storage.insert("directories".into(), Value::Array(directories));
    }
    if !files.is_empty() {
        storage.insert("files".into(), Value::Array(files));
    }
    let mut root = serde_json::Map::new();
    root.insert(
        "ignition".into(),
        json!({"version": options.version.as_str()}),
    );
    if !storage.is_empty() {
        root.insert("storage".into(), Value::Object(storage));
    }
    let mut text = serde_json::to_string_pretty(&Value::Object(root))?;
    text.push('\n');
    Ok(text.into_bytes())
}

fn file_entry(file: &Placed, bytes: &[u8]) -> Result<Value> {
    let mut contents = serde_json::Map::new();
    let (source, gzipped) = data_url(bytes)?;
    if gzipped {
        contents.insert("compression".into(), json!("gzip"));
    }
    contents.insert("source".into(), json!(source));
    Ok(json!({
        "path": file.target.as_str(),
        "mode": file.mode,
        "overwrite": true,
        "user": root_id(),
        "group": root_id(),
        "contents": contents,
    }))
}

const DATA_PREFIX: &str = "data:;base64,";

/// A `data:` URL (RFC 2397, base64) for `bytes`, and whether it holds them gzip-compressed:
/// compressed when that makes the URL shorter (cloud configs and pods shrink to about a third;
/// a short key does not).
fn data_url(bytes: &[u8]) -> Result<(String, bool)> {
    let engine = base64::engine::general_purpose::STANDARD;
    let plain = engine.encode(bytes);
    let packed = engine.encode(gzip(bytes)?);
    Ok(if packed.len() < plain.len() {
        (format!("{DATA_PREFIX}{packed}"), true)
    } else {
        (format!("{DATA_PREFIX}{plain}"), false)
    })
}

/// Deterministic gzip (RFC 1952): no file name, modification time 0, operating system 255
/// ("unknown", rather than the build host's), best compression. flate2's pure-Rust backend
/// (miniz_oxide) gives the same bytes on every host for a given version, which Cargo.lock pins.
pub(super) fn gzip(bytes: &[u8]) -> Result<Vec<u8>> {
    let mut encoder = flate2::GzBuilder::new()
        .mtime(0)
        .operating_system(255)
        .write(Vec::new(), flate2::Compression::best());
    encoder.write_all(bytes)?;
    Ok(encoder.finish()?)
}
