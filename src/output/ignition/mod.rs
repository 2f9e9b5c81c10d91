//! `render --ignition`: the render as an Ignition config fragment (spec 3.x), whose
//! `storage.files` put every file where [`crate::output::placement`] says it lands on the bootstrap
//! node, so the installer can embed it in `bootstrap.ign`. Pure: a [`Tree`] in, bytes out
//! ([`config`]); and bytes in, files by node path out ([`files_of`]) for `--check`/`--diff`
//! ([`compare`]). The file I/O is at the edge, in [`file`] (through [`crate::output`]).
//!
//! Field names and semantics: coreos/ignition docs/configuration-v3_2.md (the same for every
//! field used here in 3.1.0 to 3.4.0): `mode` is decimal, `overwrite: true` needs
//! `contents.source`, `compression` is null or `gzip`, and every file, directory and link path
//! is unique.

use crate::output::placement::{self, Placed};
use crate::output::{File, Tree};
use anyhow::{Context as _, Result, anyhow, bail};
use base64::Engine as _;
use camino::Utf8PathBuf;
use serde_json::{Value, json};
use std::collections::BTreeMap;
use std::io::{Read as _, Write as _};

pub mod compare;
pub mod file;

/// The Ignition spec versions `--ignition-version` offers: the stable 3.x specs an OpenShift
/// installer has written or may write for RHCOS.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, clap::ValueEnum)]
pub enum Version {
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
    pub fn as_str(self) -> &'static str {
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
pub fn default_version(release: &str) -> Version {
    VERSION_BY_RELEASE
        .iter()
        .find(|(name, _)| *name == release)
        .map_or(Version::V3_2, |(_, version)| *version)
}

/// The spec each release's installer writes for RHCOS (see [`default_version`]).
pub const VERSION_BY_RELEASE: &[(&str, Version)] = &[
    ("4.18", Version::V3_2),
    ("4.19", Version::V3_2),
    ("4.20", Version::V3_2),
    ("4.21", Version::V3_2),
    ("4.22", Version::V3_2),
    ("4.23", Version::V3_2),
];

/// What to put in the fragment.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Options {
    /// `ignition.version`.
    pub version: Version,
    /// Also the post-install manifests (`--ignition-manifests`).
    pub manifests: bool,
}

/// Owner and group of every entry: root, by id, so that applying the fragment needs no
/// passwd lookup in the target root.
fn root_id() -> Value {
    json!({"id": 0})
}

/// The Ignition config for `tree`: one `storage.files` entry per placed file (sorted by node
/// path), one `storage.directories` entry per target folder in use (its mode from the map),
/// pretty-printed with a final newline. Deterministic: the same tree gives the same bytes.
pub fn config(tree: &Tree, options: Options) -> Result<Vec<u8>> {
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
fn gzip(bytes: &[u8]) -> Result<Vec<u8>> {
    let mut encoder = flate2::GzBuilder::new()
        .mtime(0)
        .operating_system(255)
        .write(Vec::new(), flate2::Compression::best());
    encoder.write_all(bytes)?;
    Ok(encoder.finish()?)
}

/// What an Ignition config lays down: its files by node path (contents decoded, mode as
/// written, 0644 when absent as Ignition defaults it), and its `ignition.version`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Contents {
    /// `ignition.version`.
    pub version: String,
    /// `storage.files`, by path.
    pub files: BTreeMap<Utf8PathBuf, File>,
    /// `storage.directories`: path and mode.
    pub directories: BTreeMap<Utf8PathBuf, u32>,
}

/// Reads an Ignition config's files (those with `data:` sources: the ones this tool writes).
/// An error names what is wrong, never a file's contents.
pub fn files_of(bytes: &[u8]) -> Result<Contents> {
    let config: Value =
        serde_json::from_slice(bytes).map_err(|e| anyhow!("not an Ignition config (JSON): {e}"))?;
    let version = config
        .pointer("/ignition/version")
        .and_then(Value::as_str)
        .ok_or_else(|| anyhow!("not an Ignition config: no ignition.version"))?
        .to_string();
    let mut contents = Contents {
        version,
        ..Contents::default()
    };
    let list = |key: &str| {
        config
            .pointer(&format!("/storage/{key}"))
            .and_then(Value::as_array)
            .cloned()
            .unwrap_or_default()
    };
    for entry in list("directories") {
        let path = entry_path(&entry)?;
        contents
            .directories
            .insert(path, entry_mode(&entry, 0o755)?);
    }
    for entry in list("files") {
        let path = entry_path(&entry)?;
        let source = entry
            .pointer("/contents/source")
            .and_then(Value::as_str)
            .unwrap_or("data:,");
        let mut data = decode_data_url(source).with_context(|| format!("file {path}"))?;
        match entry
            .pointer("/contents/compression")
            .and_then(Value::as_str)
        {
            None | Some("") => {}
            Some("gzip") => {
                let mut plain = Vec::new();
                flate2::read::GzDecoder::new(data.as_slice())
                    .read_to_end(&mut plain)
                    .map_err(|e| anyhow!("file {path}: contents are not gzip: {e}"))?;
                data = plain;
            }
            Some(other) => bail!("file {path}: unknown compression {other:?}"),
        }
        let mode = entry_mode(&entry, 0o644)?;
        contents.files.insert(path, File { bytes: data, mode });
    }
    Ok(contents)
}

fn entry_path(entry: &Value) -> Result<Utf8PathBuf> {
    entry
        .get("path")
        .and_then(Value::as_str)
        .map(Utf8PathBuf::from)
        .ok_or_else(|| anyhow!("not an Ignition config: a storage entry without a path"))
}

fn entry_mode(entry: &Value, default: u32) -> Result<u32> {
    match entry.get("mode") {
        None | Some(Value::Null) => Ok(default),
        Some(mode) => mode
            .as_u64()
            .and_then(|m| u32::try_from(m).ok())
            .ok_or_else(|| anyhow!("not an Ignition config: mode {mode} is not a number")),
    }
}

/// Decodes an RFC 2397 `data:` URL: base64 (`;base64`) or percent-encoded text.
fn decode_data_url(url: &str) -> Result<Vec<u8>> {
    let rest = url
        .strip_prefix("data:")
        .ok_or_else(|| anyhow!("source is not a data: URL (only data: URLs are compared)"))?;
    let (meta, data) = rest
        .split_once(',')
        .ok_or_else(|| anyhow!("data: URL without a comma"))?;
    if meta.ends_with(";base64") {
        base64::engine::general_purpose::STANDARD
            .decode(data)
            .map_err(|e| anyhow!("data: URL is not valid base64: {e}"))
    } else {
        percent_decode(data)
    }
}

fn percent_decode(text: &str) -> Result<Vec<u8>> {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let hex = text
                .get(i + 1..i + 3)
                .and_then(|h| u8::from_str_radix(h, 16).ok())
                .ok_or_else(|| anyhow!("data: URL has a bad percent escape"))?;
            out.push(hex);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tree() -> Tree {
        let mut tree = Tree::default();
        let add = |tree: &mut Tree, path: &str, text: String, mode| {
            tree.files.insert(
                path.into(),
                File {
                    bytes: text.into_bytes(),
                    mode,
                },
            );
        };
        add(
            &mut tree,
            "bootstrap/pod-a.yaml",
            "kind: Pod\n".repeat(40),
            0o644,
        );
        add(&mut tree, "config/cloud.conf", "[Global]\n".into(), 0o600);
        add(&mut tree, "secrets/key", "s3cr3t".into(), 0o600);
        add(
            &mut tree,
            "manifests/cm.yaml",
            "kind: ConfigMap\n".into(),
            0o644,
        );
        tree
    }

    fn options(manifests: bool) -> Options {
        Options {
            version: Version::V3_2,
            manifests,
        }
    }

    #[test]
    fn files_land_at_their_node_paths_with_decimal_modes_root_owned_and_overwritten() {
        let bytes = config(&tree(), options(false)).expect("config");
        let value: Value = serde_json::from_slice(&bytes).expect("JSON");
        assert_eq!(value["ignition"]["version"], "3.2.0");
        let files = value["storage"]["files"].as_array().expect("files");
        let paths: Vec<&str> = files.iter().filter_map(|f| f["path"].as_str()).collect();
        assert_eq!(
            paths,
            [
                "/etc/kubernetes/bootstrap-configs/cloud.conf",
                "/etc/kubernetes/bootstrap-secrets/key",
                "/etc/kubernetes/manifests/pod-a.yaml"
            ]
        );
        assert_eq!(files[0]["mode"], 384, "0600 in decimal");
        assert_eq!(files[1]["mode"], 384);
        assert_eq!(files[2]["mode"], 420, "0644 in decimal");
        for file in files {
            assert_eq!(file["overwrite"], true);
            assert_eq!(file["user"]["id"], 0);
            assert_eq!(file["group"]["id"], 0);
        }
        let directories = value["storage"]["directories"].as_array().expect("dirs");
        assert_eq!(directories[1]["path"], "/etc/kubernetes/bootstrap-secrets");
        assert_eq!(directories[1]["mode"], 448, "0700 in decimal");
    }

    #[test]
    fn repetitive_contents_are_gzipped_short_ones_are_not_and_both_read_back() {
        let bytes = config(&tree(), options(true)).expect("config");
        let value: Value = serde_json::from_slice(&bytes).expect("JSON");
        let by_path = |p: &str| {
            value["storage"]["files"]
                .as_array()
                .expect("files")
                .iter()
                .find(|f| f["path"] == p)
                .expect("present")
                .clone()
        };
        assert_eq!(
            by_path("/etc/kubernetes/manifests/pod-a.yaml")["contents"]["compression"],
            "gzip"
        );
        assert!(
            by_path("/etc/kubernetes/bootstrap-secrets/key")["contents"]
                .get("compression")
                .is_none()
        );
        let back = files_of(&bytes).expect("parses");
        assert_eq!(back.version, "3.2.0");
        assert_eq!(back.files.len(), 4);
        for (placed, original) in placement::place_tree(&tree(), true) {
            let file = &back.files[&placed.target];
            assert_eq!(file.bytes, original, "{}", placed.target);
            assert_eq!(file.mode, placed.mode);
        }
    }

    #[test]
    fn the_same_tree_gives_the_same_bytes_and_the_version_is_the_only_difference() {
        let a = config(&tree(), options(true)).expect("config");
        assert_eq!(a, config(&tree(), options(true)).expect("config"));
        let v34 = config(
            &tree(),
            Options {
                version: Version::V3_4,
                manifests: true,
            },
        )
        .expect("config");
        assert_eq!(
            String::from_utf8(v34).expect("utf8"),
            String::from_utf8(a)
                .expect("utf8")
                .replace("\"3.2.0\"", "\"3.4.0\"")
        );
    }

    #[test]
    fn every_release_defaults_to_the_spec_its_installer_writes() {
        let releases = crate::catalogue::Releases::builtin().expect("releases");
        for release in releases.all().iter().map(|r| r.name.as_str()) {
            assert!(
                VERSION_BY_RELEASE.iter().any(|(name, _)| *name == release),
                "no Ignition version for release {release}"
            );
            assert_eq!(default_version(release), Version::V3_2);
        }
    }

    #[test]
    fn gzip_header_has_no_time_and_no_host() {
        let packed = gzip(b"abc").expect("gzip");
        assert_eq!(&packed[4..8], &[0, 0, 0, 0], "mtime 0");
        assert_eq!(packed[9], 255, "OS unknown");
    }

    #[test]
    fn data_urls_in_other_encodings_are_read() {
        assert_eq!(decode_data_url("data:,a%20b").expect("ok"), b"a b");
        assert_eq!(
            decode_data_url("data:text/plain;charset=utf-8;base64,aGk=").expect("ok"),
            b"hi"
        );
        assert!(decode_data_url("https://example.com/x").is_err());
        assert!(files_of(b"{}").is_err());
        assert!(files_of(b"not json").is_err());
    }

    #[test]
    fn an_empty_render_is_a_valid_config_with_no_storage() {
        let bytes = config(&Tree::default(), options(false)).expect("config");
        assert_eq!(
            String::from_utf8(bytes).expect("utf8"),
            "{\n  \"ignition\": {\n    \"version\": \"3.2.0\"\n  }\n}\n"
        );
    }
}
