//! Reading an Ignition config back: its files by node path, for `--check` and `--diff`.

use crate::output::File;
use anyhow::{Context as _, Result, anyhow, bail};
use base64::Engine as _;
use camino::Utf8PathBuf;
use serde_json::Value;
use std::collections::BTreeMap;
use std::io::Read as _;

/// What an Ignition config lays down: its files by node path (contents decoded, mode as
/// written, 0644 when absent as Ignition defaults it), and its `ignition.version`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Contents {
    /// `ignition.version`.
    pub(crate) version: String,
    /// `storage.files`, by path.
    pub(crate) files: BTreeMap<Utf8PathBuf, File>,
    /// `storage.directories`: path and mode.
    pub(crate) directories: BTreeMap<Utf8PathBuf, u32>,
}

/// Reads an Ignition config's files (those with `data:` sources: the ones this tool writes).
/// An error names what is wrong, never a file's contents.
pub(crate) fn files_of(bytes: &[u8]) -> Result<Contents> {
    let config: Value = serde_json::from_slice(bytes).context("not an Ignition config (JSON)")?;
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
                    .with_context(|| format!("file {path}: contents are not gzip"))?;
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
pub(super) fn decode_data_url(url: &str) -> Result<Vec<u8>> {
    let rest = url
        .strip_prefix("data:")
        .ok_or_else(|| anyhow!("source is not a data: URL (only data: URLs are compared)"))?;
    let (meta, data) = rest
        .split_once(',')
        .ok_or_else(|| anyhow!("data: URL without a comma"))?;
    if meta.ends_with(";base64") {
        base64::engine::general_purpose::STANDARD
            .decode(data)
            .context("data: URL is not valid base64")
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
