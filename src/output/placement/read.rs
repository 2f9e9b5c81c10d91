//! The edge of `ccm-render placements --dest-dir`: the files of a rendered directory, with
//! their places on the node ([`super::place`]).

use anyhow::{Context as _, Result, anyhow, bail};
use camino::{Utf8Path, Utf8PathBuf};
use std::os::unix::fs::PermissionsExt as _;

/// Every regular file under the placed folders of a rendered `dest` (`ccm-render placements
/// --dest-dir`), with its place on the node, in the stage's order. A symbolic link there is an
/// error: the stage must not copy what the render did not write.
pub(crate) fn placed_files(dest: &Utf8Path, manifests: bool) -> Result<Vec<super::Placed>> {
    let meta = std::fs::metadata(dest).with_context(|| format!("--dest-dir {dest}"))?;
    if !meta.is_dir() {
        bail!("--dest-dir {dest}: is not a directory");
    }
    let mut placed = Vec::new();
    for placement in super::active(manifests) {
        let mut stack = vec![Utf8PathBuf::from(placement.source)];
        let mut files = Vec::new();
        while let Some(relative) = stack.pop() {
            let dir = dest.join(&relative);
            let entries = match std::fs::read_dir(&dir) {
                Ok(entries) => entries,
                Err(err) if err.kind() == std::io::ErrorKind::NotFound => continue,
                Err(err) => return Err(err).with_context(|| format!("--dest-dir: listing {dir}")),
            };
            for entry in entries {
                let entry = entry.with_context(|| format!("--dest-dir: listing {dir}"))?;
                let name = entry.file_name();
                let name = name
                    .to_str()
                    .ok_or_else(|| anyhow!("--dest-dir: {dir} holds a name that is not UTF-8"))?;
                if name.starts_with(".ccm-render") {
                    // ccm-render's own temporary and bookkeeping files: never part of a render.
                    continue;
                }
                let child = relative.join(name);
                let meta = std::fs::symlink_metadata(dest.join(&child))
                    .with_context(|| format!("--dest-dir: reading {}", dest.join(&child)))?;
                if meta.is_dir() {
                    stack.push(child);
                } else if meta.is_file() {
                    files.push((child, meta.permissions().mode() & 0o777));
                } else {
                    bail!(
                        "--dest-dir: {} is not a regular file; refusing to place it",
                        dest.join(&child)
                    );
                }
            }
        }
        files.sort();
        placed.extend(
            files
                .into_iter()
                .filter_map(|(path, mode)| super::place(&path, mode, manifests)),
        );
    }
    Ok(placed)
}
