//! Reading provider folders from disk (`--provider-dir`, `provider check`): the files of a
//! folder as text, with the limits every input has. What the files mean is
//! [`crate::providers`]' business; this module only gathers them, so that the built-in providers
//! (embedded in the binary) and folders on disk go through the same parse and checks.
//!
//! Rules: regular files only, UTF-8, at most [`MAX_FILE_BYTES`] each and [`MAX_FILES`] per
//! folder, at most [`MAX_DEPTH`] levels deep (`provider.yaml`, `manifests/x.yaml`). A symbolic
//! link is followed only when its target stays inside the folder.

use anyhow::{Context as _, Result, anyhow, bail};
use camino::{Utf8Path, Utf8PathBuf};
use std::collections::BTreeMap;
use std::io::Read as _;

/// The largest file of a provider folder. A Deployment with its script is a few kilobytes.
pub(crate) const MAX_FILE_BYTES: u64 = 1024 * 1024;

/// The most files one provider folder may hold.
pub(crate) const MAX_FILES: usize = 256;

/// Folder levels read below a provider folder (`manifests/` is one).
pub(crate) const MAX_DEPTH: usize = 1;

/// The files of one folder, as text.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct FolderText {
    /// How messages name the folder (`DIR/oci`, `assets/aws`).
    pub origin: String,
    /// File contents by path relative to the folder, `/`-separated (`manifests/x.yaml`).
    pub files: BTreeMap<String, String>,
}

impl FolderText {
    /// The folder's own name (the last component of its origin).
    pub fn name(&self) -> &str {
        self.origin.rsplit('/').next().unwrap_or_default()
    }
}

/// Reads one folder.
pub fn read_folder(dir: &Utf8Path) -> Result<FolderText> {
    let root = dir
        .canonicalize_utf8()
        .with_context(|| format!("{dir}: cannot open"))?;
    if !root.is_dir() {
        bail!("{dir}: is not a directory");
    }
    let mut out = FolderText {
        origin: dir.as_str().trim_end_matches('/').to_string(),
        files: BTreeMap::new(),
    };
    read_into(&root, dir, "", 0, &mut out)?;
    Ok(out)
}

/// Reads every sub-folder of `dir` (files directly in `dir` are an error: each provider is a
/// folder), in name order.
pub fn read_folders(dir: &Utf8Path) -> Result<Vec<FolderText>> {
    let root = dir
        .canonicalize_utf8()
        .with_context(|| format!("{dir}: cannot open"))?;
    let mut folders = Vec::new();
    for entry in sorted_entries(dir)? {
        let path = dir.join(&entry);
        check_link(&root, &path, "the provider directory")?;
        let meta = std::fs::metadata(&path).with_context(|| format!("{path}: cannot open"))?;
        if !meta.is_dir() {
            bail!(
                "{path}: is not a folder (every entry of a provider directory is a provider folder)"
            );
        }
        folders.push(read_folder(&path)?);
    }
    Ok(folders)
}

/// Whether `dir` is itself a provider folder (it holds `provider.yaml`) rather than a folder of
/// providers.
pub fn is_provider_folder(dir: &Utf8Path) -> bool {
    dir.join("provider.yaml").exists()
}

/// Whether `dir` exists and holds anything (`provider new` never writes into such a folder).
pub fn has_entries(dir: &Utf8Path) -> bool {
    std::fs::read_dir(dir).is_ok_and(|mut entries| entries.next().is_some())
}

fn sorted_entries(dir: &Utf8Path) -> Result<Vec<String>> {
    let mut names = Vec::new();
    for entry in std::fs::read_dir(dir).with_context(|| format!("{dir}: cannot read folder"))? {
        let entry = entry.with_context(|| format!("{dir}: cannot read folder"))?;
        let name = entry
            .file_name()
            .into_string()
            .map_err(|n| anyhow!("{dir}: entry {} has a name that is not UTF-8", n.display()))?;
        names.push(name);
    }
    names.sort();
    Ok(names)
}

fn read_into(
    root: &Utf8Path,
    dir: &Utf8Path,
    prefix: &str,
    depth: usize,
    out: &mut FolderText,
) -> Result<()> {
    for name in sorted_entries(dir)? {
        let path = dir.join(&name);
        let relative = format!("{prefix}{name}");
        check_link(root, &path, "the provider folder")?;
        let meta = std::fs::metadata(&path).with_context(|| format!("{path}: cannot open"))?;
        if meta.is_dir() {
            if depth >= MAX_DEPTH {
                bail!("{path}: folders nested this deep are not part of a provider");
            }
            read_into(root, &path, &format!("{relative}/"), depth + 1, out)?;
        } else if meta.is_file() {
            if out.files.len() >= MAX_FILES {
                bail!("{}: more than {MAX_FILES} files", out.origin);
            }
            out.files.insert(relative, read_limited(&path)?);
        } else {
            bail!("{path}: is not a regular file");
        }
    }
    Ok(())
}

/// Refuses a symbolic link at `path` whose target is outside `root`.
fn check_link(root: &Utf8Path, path: &Utf8Path, what: &str) -> Result<()> {
    let link = std::fs::symlink_metadata(path).with_context(|| format!("{path}: cannot open"))?;
    if link.file_type().is_symlink() {
        let target = path
            .canonicalize_utf8()
            .with_context(|| format!("{path}: symbolic link to nowhere"))?;
        if !target.starts_with(root) {
            bail!("{path}: symbolic link leaves {what} (to {target})");
        }
    }
    Ok(())
}

fn read_limited(path: &Utf8PathBuf) -> Result<String> {
    let file = std::fs::File::open(path).with_context(|| format!("{path}: cannot open"))?;
    let mut bytes = Vec::new();
    file.take(MAX_FILE_BYTES + 1)
        .read_to_end(&mut bytes)
        .with_context(|| format!("{path}: cannot read"))?;
    if bytes.len() as u64 > MAX_FILE_BYTES {
        bail!(
            "{path}: larger than the {} KiB limit for provider files",
            MAX_FILE_BYTES / 1024
        );
    }
    String::from_utf8(bytes).map_err(|_| anyhow!("{path}: is not UTF-8 text"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tmp() -> (tempfile::TempDir, Utf8PathBuf) {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = Utf8PathBuf::from_path_buf(dir.path().to_path_buf()).expect("utf8");
        (dir, path)
    }

    #[test]
    fn files_are_read_by_relative_path() {
        let (_guard, root) = tmp();
        let p = root.join("oci");
        std::fs::create_dir_all(p.join("manifests")).expect("mkdir");
        std::fs::write(p.join("provider.yaml"), "a: 1\n").expect("write");
        std::fs::write(p.join("manifests/x.yaml"), "b: 2\n").expect("write");
        let folders = read_folders(&root).expect("reads");
        assert_eq!(folders.len(), 1);
        assert_eq!(folders[0].name(), "oci");
        let keys: Vec<&str> = folders[0].files.keys().map(String::as_str).collect();
        assert_eq!(keys, ["manifests/x.yaml", "provider.yaml"]);
    }

    #[test]
    fn symlink_leaving_the_folder_is_refused() {
        let (_guard, root) = tmp();
        let p = root.join("p");
        std::fs::create_dir_all(&p).expect("mkdir");
        std::fs::write(root.join("outside.yaml"), "x").expect("write");
        std::os::unix::fs::symlink(root.join("outside.yaml"), p.join("provider.yaml"))
            .expect("symlink");
        let err = format!("{:#}", read_folder(&p).expect_err("escapes"));
        assert!(
            err.contains("symbolic link leaves the provider folder"),
            "{err}"
        );
    }

    #[test]
    fn provider_folder_linked_from_elsewhere_is_refused() {
        let (_guard, root) = tmp();
        std::fs::create_dir_all(root.join("providers")).expect("mkdir");
        std::fs::create_dir_all(root.join("elsewhere/oci")).expect("mkdir");
        std::os::unix::fs::symlink(root.join("elsewhere/oci"), root.join("providers/oci"))
            .expect("symlink");
        let err = format!(
            "{:#}",
            read_folders(&root.join("providers")).expect_err("escapes")
        );
        assert!(
            err.contains("symbolic link leaves the provider directory"),
            "{err}"
        );
    }

    #[test]
    fn symlink_inside_the_folder_is_followed() {
        let (_guard, root) = tmp();
        std::fs::write(root.join("real.yaml"), "x").expect("write");
        std::os::unix::fs::symlink(root.join("real.yaml"), root.join("provider.yaml"))
            .expect("symlink");
        let folder = read_folder(&root).expect("reads");
        assert_eq!(folder.files["provider.yaml"], "x");
    }

    #[test]
    fn oversized_file_is_refused() {
        let (_guard, root) = tmp();
        let f = std::fs::File::create(root.join("provider.yaml")).expect("create");
        f.set_len(MAX_FILE_BYTES + 1).expect("grow");
        let err = format!("{:#}", read_folder(&root).expect_err("too big"));
        assert!(err.contains("KiB limit"), "{err}");
    }

    #[test]
    fn deep_nesting_and_loose_files_are_refused() {
        let (_guard, root) = tmp();
        std::fs::create_dir_all(root.join("p/manifests/deeper")).expect("mkdir");
        let err = format!("{:#}", read_folder(&root.join("p")).expect_err("deep"));
        assert!(err.contains("nested"), "{err}");
        std::fs::write(root.join("loose.yaml"), "x").expect("write");
        let err = format!("{:#}", read_folders(&root).expect_err("loose file"));
        assert!(err.contains("is not a folder"), "{err}");
    }
}
