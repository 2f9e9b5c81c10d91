//! The edge of `--ignition FILE`: reads FILE as it is, writes the new config (0600,
//! crash-safely, through [`crate::output`]) and puts FILE back if the rest of the run fails.

use super::compare::{Comparison, compare};
use super::config::Options;
use super::read::Contents;
use crate::output::{File, PRIVATE_MODE, Tree};
use anyhow::{Context as _, Result, bail};
use camino::{Utf8Path, Utf8PathBuf};
use std::os::unix::fs::PermissionsExt as _;

/// `--ignition FILE`: the config rendered in memory, and how it compares with FILE.
#[derive(Debug)]
pub(crate) struct Target {
    /// FILE.
    pub(crate) path: Utf8PathBuf,
    /// What was asked for.
    pub(crate) options: Options,
    /// The config.
    pub(crate) bytes: Vec<u8>,
    /// What the config lays down.
    pub(crate) contents: Contents,
    /// How FILE differs from it.
    pub(crate) comparison: Comparison,
    /// FILE as it is now (None: there is none).
    existing: Option<File>,
}

/// What [`Target::write`] did, for [`Target::restore`].
#[derive(Debug)]
pub(crate) enum Written {
    /// FILE was already as rendered.
    Nothing,
    /// FILE was created.
    Created,
    /// FILE was replaced; its old contents and mode.
    Replaced(File),
}

impl Target {
    /// Renders the config for `tree` and reads FILE. `strict`: FILE must be a config this tool
    /// can read (`--check`, `--diff`, which must say what they compare with); otherwise a FILE
    /// that is not one is simply replaced.
    pub(crate) fn new(
        path: &Utf8Path,
        options: Options,
        tree: &Tree,
        strict: bool,
    ) -> Result<Self> {
        let bytes = super::config::config(tree, options)?;
        let contents = super::files_of(&bytes)?;
        let existing = read_file(path, "--ignition")?;
        let old = match &existing {
            Some(file) => match super::files_of(&file.bytes) {
                Ok(old) => Some(old),
                Err(err) if strict => return Err(err.context(format!("--ignition {path}"))),
                Err(_) => None,
            },
            None => None,
        };
        let comparison = compare(path, existing.as_ref(), old.as_ref(), &bytes, &contents);
        Ok(Self {
            path: path.to_owned(),
            options,
            bytes,
            contents,
            comparison,
            existing,
        })
    }

    /// Writes FILE (0600, through a flushed temporary file renamed into place) unless it is
    /// already as rendered.
    pub(crate) fn write(&self) -> Result<Written> {
        if !self.comparison.has_changes() {
            return Ok(Written::Nothing);
        }
        let new = File {
            bytes: self.bytes.clone(),
            mode: PRIVATE_MODE,
        };
        crate::output::replace_single_file(&self.path, &new, "--ignition")?;
        Ok(match &self.existing {
            Some(old) => Written::Replaced(old.clone()),
            None => Written::Created,
        })
    }

    /// Puts FILE back as [`Self::write`] found it. Best effort: the error that made the run
    /// fail is the one to report.
    pub(crate) fn restore(&self, written: Written) {
        match written {
            Written::Nothing => {}
            Written::Replaced(old) => {
                let _ = crate::output::replace_single_file(&self.path, &old, "--ignition");
            }
            Written::Created => {
                let _ = std::fs::remove_file(&self.path);
            }
        }
    }

    /// The `ignition` object of `--output json`.
    pub(crate) fn summary(&self, dry_run: bool) -> crate::output::summary::IgnitionSummary {
        crate::output::summary::ignition(
            &self.comparison.plan,
            self.path.as_str(),
            self.options.version.as_str(),
            dry_run,
            self.comparison.has_changes(),
        )
    }
}

/// Checks, before anything is rendered or written, that a single output file such as
/// `--ignition FILE` can be written at `path`: not a directory nor a symbolic link, in an
/// existing directory. (Whether that directory is writable shows when the file is written,
/// before anything else is.)
pub(crate) fn check_target(path: &Utf8Path, flag: &str) -> Result<()> {
    match std::fs::symlink_metadata(path) {
        Ok(meta) if meta.is_dir() => bail!("{flag} {path}: is a directory"),
        Ok(meta) if meta.file_type().is_symlink() => {
            bail!("{flag} {path}: is a symbolic link; refusing to replace it")
        }
        Ok(meta) if !meta.is_file() => bail!("{flag} {path}: exists and is not a regular file"),
        Ok(_) => Ok(()),
        Err(err) if missing(&err) => {
            let dir = match path.parent() {
                Some(dir) if !dir.as_str().is_empty() => dir,
                _ => Utf8Path::new("."),
            };
            match std::fs::metadata(dir) {
                Ok(meta) if meta.is_dir() => Ok(()),
                Ok(_) => bail!("{flag} {path}: {dir} is not a directory"),
                Err(err) if missing(&err) => bail!("{flag} {path}: folder {dir} does not exist"),
                Err(err) => Err(err).with_context(|| format!("{flag} {path}: {dir}")),
            }
        }
        Err(err) => Err(err).with_context(|| format!("{flag} {path}")),
    }
}

/// A single output file as it is now (None: there is none); errors prefixed by `flag`.
fn read_file(path: &Utf8Path, flag: &str) -> Result<Option<File>> {
    match std::fs::symlink_metadata(path) {
        Ok(meta) if meta.is_file() => {
            let bytes = std::fs::read(path).with_context(|| format!("{flag} {path}: reading"))?;
            Ok(Some(File {
                bytes,
                mode: meta.permissions().mode() & 0o7777,
            }))
        }
        Ok(_) => bail!("{flag} {path}: exists and is not a regular file"),
        Err(err) if missing(&err) => Ok(None),
        Err(err) => Err(err).with_context(|| format!("{flag} {path}")),
    }
}

/// Whether a path does not exist (also when a file stands where a folder of the path should).
fn missing(err: &std::io::Error) -> bool {
    matches!(
        err.kind(),
        std::io::ErrorKind::NotFound | std::io::ErrorKind::NotADirectory
    )
}
