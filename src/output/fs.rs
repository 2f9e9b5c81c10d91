//! What the writing steps ask of the filesystem before they act: whether a path is missing,
//! whether a folder inside `--dest-dir` is a real one, and creating `--dest-dir` itself.

use anyhow::{Context as _, Result, bail};
use camino::Utf8Path;

/// Whether a path does not exist (also when a file stands where a folder of the path should).
pub(crate) fn missing(err: &std::io::Error) -> bool {
    matches!(
        err.kind(),
        std::io::ErrorKind::NotFound | std::io::ErrorKind::NotADirectory
    )
}

/// Whether `dir` (inside `--dest-dir`) exists as a real directory; an error when it is a
/// symbolic link or a file, which a write would refuse too.
pub(crate) fn probe_dir(dir: &Utf8Path) -> Result<bool> {
    match std::fs::symlink_metadata(dir) {
        Ok(meta) if meta.is_dir() => Ok(true),
        Ok(meta) if meta.file_type().is_symlink() => {
            bail!("--dest-dir: {dir} is a symbolic link; refusing to write through it")
        }
        Ok(_) => bail!("--dest-dir: {dir} exists and is not a directory"),
        Err(err) if missing(&err) => Ok(false),
        Err(err) => Err(err).with_context(|| format!("--dest-dir: {dir}")),
    }
}

/// Creates `--dest-dir` and its missing ancestors. The user named this path, so symbolic links
/// on the way to it (and `--dest-dir` itself being one) are followed; below it, nothing is.
/// Another run creating the same folders at the same time is no error.
pub(crate) fn create_root(dir: &Utf8Path) -> Result<()> {
    match std::fs::metadata(dir) {
        Ok(meta) if meta.is_dir() => return Ok(()),
        Ok(_) => bail!("--dest-dir: {dir} exists and is not a directory"),
        Err(err) if err.kind() == std::io::ErrorKind::NotFound => {}
        Err(err) => return Err(err).with_context(|| format!("--dest-dir: {dir}")),
    }
    if std::fs::symlink_metadata(dir).is_ok() {
        bail!("--dest-dir: {dir} is a symbolic link to nowhere");
    }
    if let Some(parent) = dir.parent()
        && !parent.as_str().is_empty()
    {
        create_root(parent)?;
    }
    match std::fs::create_dir(dir) {
        Ok(()) => Ok(()),
        Err(err) if err.kind() == std::io::ErrorKind::AlreadyExists && dir.is_dir() => Ok(()),
        Err(err) => Err(err).with_context(|| format!("--dest-dir: creating {dir}")),
    }
}
