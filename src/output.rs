//! The only code that touches `--dest-dir`: laying a render out as files, and writing them.
//!
//! Writing is all or nothing as far as a process can make it: every file is rendered in memory
//! first; each changed file is written to a temporary file in its own directory, flushed and
//! renamed over the target; if anything fails, the files already replaced are put back and the
//! new ones removed, so `--dest-dir` is left as it was. Unchanged files are not rewritten, so a
//! rerun changes nothing (bootkube.sh restarts its steps).

use crate::render::Rendered;
use anyhow::{Context as _, Result, anyhow, bail};
use camino::{Utf8Path, Utf8PathBuf};
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};
use std::io::Write as _;
use std::os::unix::fs::PermissionsExt as _;

/// The folders that always exist after a successful render (CLI contract).
pub const FOLDERS: [&str; 3] = ["bootstrap", "config", "manifests"];

/// Mode of manifests and static pods.
pub const PUBLIC_MODE: u32 = 0o644;
/// Mode of the cloud config and credentials.
pub const PRIVATE_MODE: u32 = 0o600;

/// One output file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct File {
    /// Contents.
    pub bytes: Vec<u8>,
    /// Unix permission bits.
    pub mode: u32,
}

/// A rendered tree: paths relative to `--dest-dir`, in sorted order.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Tree {
    /// Files by relative path.
    pub files: BTreeMap<Utf8PathBuf, File>,
}

/// Lays a render out as files: one object per file, named from kind and name (and namespace
/// when two objects would otherwise share a name).
pub fn tree(rendered: &Rendered) -> Result<Tree> {
    let mut files = BTreeMap::new();
    for (folder, objects) in [
        ("bootstrap", &rendered.bootstrap),
        ("manifests", &rendered.manifests),
    ] {
        for (name, object) in file_names(objects)? {
            let text = crate::yaml::to_string(object)?;
            files.insert(
                Utf8PathBuf::from(folder).join(name),
                File {
                    bytes: text.into_bytes(),
                    mode: PUBLIC_MODE,
                },
            );
        }
    }
    for (name, text) in &rendered.config_files {
        files.insert(
            Utf8PathBuf::from("config").join(name),
            File {
                bytes: text.clone().into_bytes(),
                mode: PRIVATE_MODE,
            },
        );
    }
    Ok(Tree { files })
}

/// `<kind>-<name>.yaml` in lower case, with characters that are awkward in file names (`:` in
/// RBAC binding names) turned into `_`; `<kind>-<namespace>-<name>.yaml` for objects that would
/// otherwise collide.
fn file_names(objects: &[Value]) -> Result<Vec<(String, &Value)>> {
    let short = |o: &Value| {
        sanitize(&format!(
            "{}-{}",
            crate::inputs::kind_of(o),
            crate::inputs::name_of(o)
        ))
    };
    let mut counts: BTreeMap<String, usize> = BTreeMap::new();
    for object in objects {
        *counts.entry(short(object)).or_default() += 1;
    }
    let mut seen = BTreeSet::new();
    let mut out = Vec::with_capacity(objects.len());
    for object in objects {
        let base = short(object);
        let stem = if counts.get(&base).copied().unwrap_or_default() > 1 {
            let namespace = object
                .pointer("/metadata/namespace")
                .and_then(Value::as_str)
                .unwrap_or("cluster");
            sanitize(&format!(
                "{}-{namespace}-{}",
                crate::inputs::kind_of(object),
                crate::inputs::name_of(object)
            ))
        } else {
            base
        };
        let name = format!("{stem}.yaml");
        if !seen.insert(name.clone()) {
            bail!("two rendered objects would both be written to {name}");
        }
        out.push((name, object));
    }
    Ok(out)
}

fn sanitize(stem: &str) -> String {
    stem.chars()
        .map(|c| match c.to_ascii_lowercase() {
            c @ ('a'..='z' | '0'..='9' | '.' | '-') => c,
            _ => '_',
        })
        .collect()
}

/// What [`write`] did.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct WriteReport {
    /// Files created or changed.
    pub written: Vec<Utf8PathBuf>,
    /// Files already as rendered.
    pub unchanged: Vec<Utf8PathBuf>,
}

/// Checks that `dest` can be an output directory: a directory, or missing with a creatable
/// parent; never a file.
pub fn check_dest(dest: &Utf8Path) -> Result<()> {
    match std::fs::metadata(dest) {
        Ok(meta) if meta.is_dir() => Ok(()),
        Ok(_) => bail!("--dest-dir {dest}: exists and is not a directory"),
        Err(err) if missing(&err) => {
            // The nearest existing ancestor must be a directory, or nothing can be created.
            let mut ancestor = dest.parent();
            while let Some(dir) = ancestor {
                match std::fs::metadata(dir) {
                    Ok(meta) if meta.is_dir() => return Ok(()),
                    Ok(_) => bail!("--dest-dir {dest}: {dir} exists and is not a directory"),
                    Err(err) if missing(&err) => {
                        ancestor = dir.parent();
                    }
                    Err(err) => bail!("--dest-dir {dest}: {dir}: {err}"),
                }
            }
            Ok(())
        }
        Err(err) => Err(anyhow!("--dest-dir {dest}: {err}")),
    }
}

/// Whether a path does not exist (also when a file stands where a folder of the path should).
fn missing(err: &std::io::Error) -> bool {
    matches!(
        err.kind(),
        std::io::ErrorKind::NotFound | std::io::ErrorKind::NotADirectory
    )
}

/// An undo step, recorded as the write goes.
enum Undo {
    Restore(Utf8PathBuf, File),
    Remove(Utf8PathBuf),
    RemoveDir(Utf8PathBuf),
}

/// Writes a tree under `dest`, atomically per file and rolled back as a whole on failure.
pub fn write(tree: &Tree, dest: &Utf8Path) -> Result<WriteReport> {
    check_dest(dest)?;
    let mut undo = Vec::new();
    let result = write_inner(tree, dest, &mut undo);
    if result.is_err() {
        for step in undo.into_iter().rev() {
            // Best effort: the original error is what the user needs to see.
            let _ = match step {
                Undo::Restore(path, file) => replace_file(&path, &file),
                Undo::Remove(path) => std::fs::remove_file(&path).map_err(Into::into),
                Undo::RemoveDir(path) => std::fs::remove_dir(&path).map_err(Into::into),
            };
        }
    }
    result
}

fn write_inner(tree: &Tree, dest: &Utf8Path, undo: &mut Vec<Undo>) -> Result<WriteReport> {
    create_root(dest, undo)?;
    for folder in FOLDERS {
        create_dir(dest, &dest.join(folder), undo)?;
    }
    let mut report = WriteReport::default();
    let mut touched_dirs = BTreeSet::new();
    for (relative, file) in &tree.files {
        let path = dest.join(relative);
        if let Some(parent) = path.parent() {
            create_dir(dest, parent, undo)?;
            touched_dirs.insert(parent.to_owned());
        }
        let previous = read_existing(&path)?;
        if previous.as_ref() == Some(file) {
            report.unchanged.push(relative.clone());
            continue;
        }
        replace_file(&path, file)?;
        undo.push(match previous {
            Some(old) => Undo::Restore(path.clone(), old),
            None => Undo::Remove(path.clone()),
        });
        report.written.push(relative.clone());
    }
    // Make the renames durable: a crash after this returns cannot lose them.
    for dir in touched_dirs {
        if let Ok(handle) = std::fs::File::open(&dir) {
            handle
                .sync_all()
                .with_context(|| format!("--dest-dir: syncing {dir}"))?;
        }
    }
    Ok(report)
}

/// Creates `--dest-dir` and its missing ancestors. The user named this path, so symbolic links
/// on the way to it (and `--dest-dir` itself being one) are followed; below it, nothing is.
fn create_root(dir: &Utf8Path, undo: &mut Vec<Undo>) -> Result<()> {
    match std::fs::metadata(dir) {
        Ok(meta) if meta.is_dir() => return Ok(()),
        Ok(_) => bail!("--dest-dir: {dir} exists and is not a directory"),
        Err(err) if err.kind() == std::io::ErrorKind::NotFound => {}
        Err(err) => bail!("--dest-dir: {dir}: {err}"),
    }
    if std::fs::symlink_metadata(dir).is_ok() {
        bail!("--dest-dir: {dir} is a symbolic link to nowhere");
    }
    if let Some(parent) = dir.parent()
        && !parent.as_str().is_empty()
    {
        create_root(parent, undo)?;
    }
    std::fs::create_dir(dir).with_context(|| format!("--dest-dir: creating {dir}"))?;
    undo.push(Undo::RemoveDir(dir.to_owned()));
    Ok(())
}

/// Creates a directory below `root` (and its missing ancestors up to `root`), refusing symbolic
/// links: a link planted in the output tree must not send a manifest elsewhere.
fn create_dir(root: &Utf8Path, dir: &Utf8Path, undo: &mut Vec<Undo>) -> Result<()> {
    if dir == root {
        return Ok(());
    }
    match std::fs::symlink_metadata(dir) {
        Ok(meta) if meta.file_type().is_symlink() => {
            bail!("--dest-dir: {dir} is a symbolic link; refusing to write through it")
        }
        Ok(meta) if meta.is_dir() => return Ok(()),
        Ok(_) => bail!("--dest-dir: {dir} exists and is not a directory"),
        Err(err) if err.kind() == std::io::ErrorKind::NotFound => {}
        Err(err) => bail!("--dest-dir: {dir}: {err}"),
    }
    match dir.parent() {
        Some(parent) if parent.starts_with(root) => create_dir(root, parent, undo)?,
        _ => bail!("--dest-dir: {dir} is not below {root}"),
    }
    std::fs::create_dir(dir).with_context(|| format!("--dest-dir: creating {dir}"))?;
    undo.push(Undo::RemoveDir(dir.to_owned()));
    Ok(())
}

/// The file at `path` as it is now, or None when there is none.
pub fn read_existing(path: &Utf8Path) -> Result<Option<File>> {
    match std::fs::symlink_metadata(path) {
        Ok(meta) if meta.file_type().is_symlink() => {
            bail!("--dest-dir: {path} is a symbolic link; refusing to replace it")
        }
        Ok(meta) if !meta.is_file() => bail!("--dest-dir: {path} exists and is not a file"),
        Ok(meta) => {
            let bytes =
                std::fs::read(path).with_context(|| format!("--dest-dir: reading {path}"))?;
            Ok(Some(File {
                bytes,
                mode: meta.permissions().mode() & 0o7777,
            }))
        }
        Err(err) if err.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(err) => bail!("--dest-dir: {path}: {err}"),
    }
}

/// Writes `file` to a temporary sibling, flushes it and renames it over `path`.
fn replace_file(path: &Utf8Path, file: &File) -> Result<()> {
    let dir = path
        .parent()
        .ok_or_else(|| anyhow!("--dest-dir: {path} has no parent directory"))?;
    let mut temp = tempfile::Builder::new()
        .prefix(".ccm-render-")
        .tempfile_in(dir)
        .with_context(|| format!("--dest-dir: creating a temporary file in {dir}"))?;
    temp.write_all(&file.bytes)
        .with_context(|| format!("--dest-dir: writing {path}"))?;
    temp.as_file()
        .set_permissions(std::fs::Permissions::from_mode(file.mode))
        .with_context(|| format!("--dest-dir: setting the mode of {path}"))?;
    temp.as_file()
        .sync_all()
        .with_context(|| format!("--dest-dir: flushing {path}"))?;
    temp.persist(path)
        .map_err(|err| anyhow!("--dest-dir: renaming into {path}: {}", err.error))?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn obj(kind: &str, ns: Option<&str>, name: &str) -> Value {
        let mut v = json!({"apiVersion": "v1", "kind": kind, "metadata": {"name": name}});
        if let Some(ns) = ns {
            v["metadata"]["namespace"] = json!(ns);
        }
        v
    }

    #[test]
    fn file_names_are_kind_and_name_in_lower_case() {
        let objects = [
            obj("RoleBinding", Some("kube-system"), "a:b"),
            obj("Deployment", None, "X"),
        ];
        let names: Vec<String> = file_names(&objects)
            .expect("ok")
            .into_iter()
            .map(|(n, _)| n)
            .collect();
        assert_eq!(names, ["rolebinding-a_b.yaml", "deployment-x.yaml"]);
    }

    #[test]
    fn colliding_names_get_the_namespace() {
        let objects = [
            obj("Role", Some("kube-system"), "ccm"),
            obj("Role", Some("other"), "ccm"),
        ];
        let names: Vec<String> = file_names(&objects)
            .expect("ok")
            .into_iter()
            .map(|(n, _)| n)
            .collect();
        assert_eq!(names, ["role-kube-system-ccm.yaml", "role-other-ccm.yaml"]);
    }

    fn sample_tree() -> Tree {
        let rendered = Rendered {
            manifests: vec![obj("ConfigMap", Some("ns"), "a")],
            config_files: [("cloud.conf".to_string(), "[Global]\n".to_string())].into(),
            ..Rendered::default()
        };
        tree(&rendered).expect("tree")
    }

    #[test]
    fn write_creates_the_layout_with_modes_and_a_rerun_changes_nothing() {
        let dir = tempfile::tempdir().expect("tempdir");
        let dest = Utf8Path::from_path(dir.path()).expect("utf8").join("out");
        let report = write(&sample_tree(), &dest).expect("writes");
        assert_eq!(report.written.len(), 2);
        for folder in FOLDERS {
            assert!(dest.join(folder).is_dir(), "{folder}");
        }
        let mode = |p: &str| {
            std::fs::metadata(dest.join(p))
                .expect("exists")
                .permissions()
                .mode()
                & 0o777
        };
        assert_eq!(mode("config/cloud.conf"), 0o600);
        assert_eq!(mode("manifests/configmap-a.yaml"), 0o644);
        let again = write(&sample_tree(), &dest).expect("rewrites");
        assert!(again.written.is_empty());
        assert_eq!(again.unchanged.len(), 2);
    }

    #[test]
    fn dest_that_is_a_file_is_refused() {
        let file = tempfile::NamedTempFile::new().expect("temp");
        let dest = Utf8Path::from_path(file.path()).expect("utf8");
        let err = write(&sample_tree(), dest).expect_err("a file");
        assert!(err.to_string().contains("is not a directory"), "{err}");
    }

    #[test]
    fn failure_midway_rolls_back_every_change() {
        let dir = tempfile::tempdir().expect("tempdir");
        let dest = Utf8Path::from_path(dir.path()).expect("utf8");
        std::fs::create_dir_all(dest.join("manifests")).expect("mkdir");
        std::fs::write(dest.join("manifests/configmap-a.yaml"), "old\n").expect("seed");
        // A directory where a file must go makes the second write fail.
        std::fs::create_dir_all(dest.join("manifests/configmap-z.yaml")).expect("blocker");
        let mut t = sample_tree();
        t.files.insert(
            "manifests/configmap-z.yaml".into(),
            File {
                bytes: b"new".to_vec(),
                mode: PUBLIC_MODE,
            },
        );
        assert!(write(&t, dest).is_err());
        assert_eq!(
            std::fs::read_to_string(dest.join("manifests/configmap-a.yaml")).expect("kept"),
            "old\n"
        );
        assert!(!dest.join("config").exists(), "created folder removed");
    }
}
