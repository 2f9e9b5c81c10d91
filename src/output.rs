//! The only code that touches `--dest-dir`: laying a render out as files, and writing them.
//!
//! Writing is all or nothing as far as a process can make it: every file is rendered in memory
//! first; each changed file is written to a temporary file in its own directory, flushed and
//! renamed over the target; if anything fails, the files already replaced are put back and the
//! new ones removed, so `--dest-dir` is left as it was. Unchanged files are not rewritten, so a
//! rerun changes nothing (bootkube.sh restarts its steps). With `--prune`, removing the files
//! the render no longer produces is part of the same transaction. [`plan`] answers what a write
//! would do without touching anything (`--check`, `--diff`).

use crate::render::Rendered;
use anyhow::{Context as _, Result, anyhow, bail};
use camino::{Utf8Path, Utf8PathBuf};
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};
use std::io::Write as _;
use std::os::unix::fs::PermissionsExt as _;

/// The folders that always exist after a successful render (CLI contract).
pub const FOLDERS: [&str; 3] = ["bootstrap", "config", "manifests"];

/// The folder of credential files, present only with `--credentials` (CLI contract).
pub const SECRETS: &str = "secrets";

/// Mode of `secrets/` when ccm-render creates it.
pub const SECRETS_DIR_MODE: u32 = 0o700;

/// Mode of manifests and static pods.
pub const PUBLIC_MODE: u32 = 0o644;
/// Mode of the cloud config, credentials and Secret manifests.
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
    /// The folders that exist after writing the tree, even when empty: [`FOLDERS`] for a render
    /// (the CLI contract), plus `secrets/` with `--credentials`.
    pub folders: Vec<&'static str>,
    /// The object each YAML file holds, by the same path (for `--output json`).
    pub objects: BTreeMap<Utf8PathBuf, ObjectRef>,
}

impl Tree {
    /// The folders that exist after writing this tree (see [`Tree::folders`](Self#structfield.folders)).
    pub fn folders(&self) -> Vec<&'static str> {
        self.folders.clone()
    }
}

/// Which Kubernetes object a file holds.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ObjectRef {
    /// `apiVersion`.
    pub api_version: String,
    /// `kind`.
    pub kind: String,
    /// `metadata.name`.
    pub name: String,
    /// `metadata.namespace`, for namespaced objects.
    pub namespace: Option<String>,
}

impl ObjectRef {
    fn of(object: &Value) -> Self {
        let text = |p: &str| object.pointer(p).and_then(Value::as_str).map(String::from);
        Self {
            api_version: text("/apiVersion").unwrap_or_default(),
            kind: crate::inputs::kind_of(object).to_string(),
            name: crate::inputs::name_of(object).to_string(),
            namespace: text("/metadata/namespace"),
        }
    }
}

/// Lays a render out as files: one object per file, named from kind and name (and namespace
/// when two objects would otherwise share a name).
pub fn tree(rendered: &Rendered) -> Result<Tree> {
    let mut files = BTreeMap::new();
    let mut refs = BTreeMap::new();
    for (folder, objects) in [
        ("bootstrap", &rendered.bootstrap),
        ("manifests", &rendered.manifests),
    ] {
        for (name, object) in file_names(objects)? {
            let text = crate::yaml::to_string(object)?;
            let path = Utf8PathBuf::from(folder).join(name);
            refs.insert(path.clone(), ObjectRef::of(object));
            // A Secret manifest (OCI's cloud-provider.yaml) can hold a cloud key: owner-only,
            // like config/cloud.conf.
            let mode = if crate::inputs::kind_of(object) == "Secret" {
                PRIVATE_MODE
            } else {
                PUBLIC_MODE
            };
            files.insert(
                path,
                File {
                    bytes: text.into_bytes(),
                    mode,
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
    if let Some(secret_files) = &rendered.secret_files {
        for (name, value) in secret_files {
            files.insert(
                Utf8PathBuf::from(SECRETS).join(name),
                File {
                    bytes: value.bytes().to_vec(),
                    mode: PRIVATE_MODE,
                },
            );
        }
    }
    Ok(Tree {
        files,
        objects: refs,
        folders: if rendered.secret_files.is_some() {
            [FOLDERS.as_slice(), &[SECRETS]].concat()
        } else {
            FOLDERS.to_vec()
        },
    })
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
    /// Files removed by `--prune`.
    pub removed: Vec<Utf8PathBuf>,
    /// Files under the output folders that this render does not produce and that were left in
    /// place (all of them without `--prune`; symbolic links and names that are not UTF-8 even
    /// with it).
    pub left: Vec<Utf8PathBuf>,
}

/// The folders `--prune` may remove files from: the ones this tool writes.
pub const PRUNABLE: [&str; 4] = ["bootstrap", "config", "manifests", "secrets"];

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

/// How a file of the output directory compares with the render.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Change {
    /// Rendered, not in the directory.
    Added,
    /// Rendered, in the directory with other contents or another mode.
    Changed,
    /// Rendered and already in the directory as rendered.
    Unchanged,
    /// In the directory, not rendered, and `--prune` given.
    Removed,
}

/// One file of a [`Plan`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    /// Path relative to `--dest-dir`.
    pub path: Utf8PathBuf,
    /// What writing would do to it.
    pub change: Change,
    /// The file as it is in the directory.
    pub old: Option<File>,
    /// The file as rendered.
    pub new: Option<File>,
}

/// What writing a tree would do to `--dest-dir`, computed without changing anything.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Plan {
    /// Every rendered file, and with `--prune` every file to remove, by path.
    pub entries: Vec<Entry>,
    /// Of [`Tree::folders`], those that do not exist yet (all of them when `--dest-dir` does not).
    pub missing_folders: Vec<Utf8PathBuf>,
    /// Files under the output folders that are not rendered and stay (see [`WriteReport::left`]).
    pub left: Vec<Utf8PathBuf>,
}

impl Plan {
    /// Whether writing would change anything.
    pub fn has_changes(&self) -> bool {
        !self.missing_folders.is_empty()
            || self.entries.iter().any(|e| e.change != Change::Unchanged)
    }
}

/// Compares `tree` with `dest` without writing or creating anything (`render --check`).
pub fn plan(tree: &Tree, dest: &Utf8Path, prune: bool) -> Result<Plan> {
    check_dest(dest)?;
    let mut plan = Plan::default();
    for folder in tree.folders() {
        if !probe_dir(&dest.join(folder))? {
            plan.missing_folders.push(folder.into());
        }
    }
    for (relative, file) in &tree.files {
        let path = dest.join(relative);
        let mut parent = relative.parent();
        while let Some(dir) = parent.filter(|d| !d.as_str().is_empty()) {
            probe_dir(&dest.join(dir))?;
            parent = dir.parent();
        }
        let old = read_existing(&path)?;
        let change = match &old {
            None => Change::Added,
            Some(old) if old == file => Change::Unchanged,
            Some(_) => Change::Changed,
        };
        plan.entries.push(Entry {
            path: relative.clone(),
            change,
            old,
            new: Some(file.clone()),
        });
    }
    let stale = stale_files(tree, dest)?;
    plan.left = stale.links;
    if prune {
        for relative in stale.files {
            let old = read_existing(&dest.join(&relative))?;
            plan.entries.push(Entry {
                path: relative,
                change: Change::Removed,
                old,
                new: None,
            });
        }
        plan.entries.sort_by(|a, b| a.path.cmp(&b.path));
    } else {
        plan.left.extend(stale.files);
        plan.left.sort();
    }
    Ok(plan)
}

/// Whether `dir` (inside `--dest-dir`) exists as a real directory; an error when it is a
/// symbolic link or a file, which [`write`] would refuse too.
fn probe_dir(dir: &Utf8Path) -> Result<bool> {
    match std::fs::symlink_metadata(dir) {
        Ok(meta) if meta.is_dir() => Ok(true),
        Ok(meta) if meta.file_type().is_symlink() => {
            bail!("--dest-dir: {dir} is a symbolic link; refusing to write through it")
        }
        Ok(_) => bail!("--dest-dir: {dir} exists and is not a directory"),
        Err(err) if err.kind() == std::io::ErrorKind::NotFound => Ok(false),
        Err(err) => bail!("--dest-dir: {dir}: {err}"),
    }
}

/// Files under [`PRUNABLE`] that `tree` does not produce.
struct Stale {
    /// Regular files, by path relative to `--dest-dir`.
    files: Vec<Utf8PathBuf>,
    /// Never removed: symbolic links (nor followed, so pruning cannot reach outside
    /// `--dest-dir`), and names that are not UTF-8.
    links: Vec<Utf8PathBuf>,
}

fn stale_files(tree: &Tree, dest: &Utf8Path) -> Result<Stale> {
    let mut stale = Stale {
        files: Vec::new(),
        links: Vec::new(),
    };
    let mut stack: Vec<Utf8PathBuf> = PRUNABLE.iter().map(Utf8PathBuf::from).collect();
    while let Some(relative) = stack.pop() {
        let dir = dest.join(&relative);
        let meta = match std::fs::symlink_metadata(&dir) {
            Ok(meta) => meta,
            Err(err) if err.kind() == std::io::ErrorKind::NotFound => continue,
            Err(err) => bail!("--dest-dir: {dir}: {err}"),
        };
        if meta.file_type().is_symlink() {
            stale.links.push(relative);
            continue;
        }
        if !meta.is_dir() {
            bail!("--dest-dir: {dir} exists and is not a directory");
        }
        let entries =
            std::fs::read_dir(&dir).with_context(|| format!("--dest-dir: listing {dir}"))?;
        for entry in entries {
            let entry = entry.with_context(|| format!("--dest-dir: listing {dir}"))?;
            let name = entry.file_name();
            let Some(name) = name.to_str() else {
                // The render never writes such a name; leave it, named as well as it can be.
                stale
                    .links
                    .push(relative.join(name.to_string_lossy().as_ref()));
                continue;
            };
            let child = relative.join(name);
            let kind = entry
                .file_type()
                .with_context(|| format!("--dest-dir: reading {}", dest.join(&child)))?;
            if kind.is_symlink() {
                stale.links.push(child);
            } else if kind.is_dir() {
                stack.push(child);
            } else if !tree.files.contains_key(&child) {
                stale.files.push(child);
            }
        }
    }
    stale.files.sort();
    stale.links.sort();
    Ok(stale)
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
    CreateDir(Utf8PathBuf),
}

/// Writes a tree under `dest`, atomically per file and rolled back as a whole on failure; files
/// the tree does not produce are left alone.
pub fn write(tree: &Tree, dest: &Utf8Path) -> Result<WriteReport> {
    apply(tree, dest, false)
}

/// Writes a tree under `dest` and, with `prune`, removes the files under [`PRUNABLE`] that it
/// does not produce (and the folders that empties, except [`FOLDERS`]), all in one transaction:
/// on failure every write and every removal is undone.
pub fn apply(tree: &Tree, dest: &Utf8Path, prune: bool) -> Result<WriteReport> {
    check_dest(dest)?;
    let mut undo = Vec::new();
    let result = write_inner(tree, dest, &mut undo).and_then(|mut report| {
        let stale = stale_files(tree, dest)?;
        report.left = stale.links;
        if prune {
            report.removed = remove_files(dest, &stale.files, &tree.folders(), &mut undo)?;
        } else {
            report.left.extend(stale.files);
            report.left.sort();
        }
        Ok(report)
    });
    if result.is_err() {
        for step in undo.into_iter().rev() {
            // Best effort: the original error is what the user needs to see.
            let _ = match step {
                Undo::Restore(path, file) => replace_file(&path, &file),
                Undo::Remove(path) => std::fs::remove_file(&path).map_err(Into::into),
                Undo::RemoveDir(path) => std::fs::remove_dir(&path).map_err(Into::into),
                Undo::CreateDir(path) => std::fs::create_dir(&path).map_err(Into::into),
            };
        }
    }
    result
}

/// Removes `files` (relative to `dest`), keeping their contents for the undo, then the folders
/// that are left empty, except `keep` (the tree's own folders): so `secrets/` goes when a render
/// without `--credentials` prunes it, and stays, empty, with `--credentials` (aws, vsphere).
fn remove_files(
    dest: &Utf8Path,
    files: &[Utf8PathBuf],
    keep: &[&str],
    undo: &mut Vec<Undo>,
) -> Result<Vec<Utf8PathBuf>> {
    let mut parents = BTreeSet::new();
    for relative in files {
        let path = dest.join(relative);
        let Some(old) = read_existing(&path)? else {
            continue;
        };
        std::fs::remove_file(&path).with_context(|| format!("--dest-dir: removing {path}"))?;
        undo.push(Undo::Restore(path, old));
        let mut parent = relative.parent();
        while let Some(dir) = parent.filter(|d| !d.as_str().is_empty()) {
            parents.insert(dir.to_owned());
            parent = dir.parent();
        }
    }
    // Deepest first, so a folder is looked at after its subfolders.
    for relative in parents.iter().rev() {
        if keep.contains(&relative.as_str()) {
            continue;
        }
        let dir = dest.join(relative);
        let empty = std::fs::read_dir(&dir)
            .with_context(|| format!("--dest-dir: listing {dir}"))?
            .next()
            .is_none();
        if empty {
            std::fs::remove_dir(&dir).with_context(|| format!("--dest-dir: removing {dir}"))?;
            undo.push(Undo::CreateDir(dir));
        }
    }
    Ok(files.to_vec())
}

fn write_inner(tree: &Tree, dest: &Utf8Path, undo: &mut Vec<Undo>) -> Result<WriteReport> {
    create_root(dest, undo)?;
    for folder in &tree.folders {
        let dir = dest.join(folder);
        let created = create_dir(dest, &dir, undo)?;
        if created && *folder == SECRETS {
            std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(SECRETS_DIR_MODE))
                .with_context(|| format!("--dest-dir: setting the mode of {dir}"))?;
        }
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
/// True when `dir` itself was created.
fn create_dir(root: &Utf8Path, dir: &Utf8Path, undo: &mut Vec<Undo>) -> Result<bool> {
    if dir == root {
        return Ok(false);
    }
    match std::fs::symlink_metadata(dir) {
        Ok(meta) if meta.file_type().is_symlink() => {
            bail!("--dest-dir: {dir} is a symbolic link; refusing to write through it")
        }
        Ok(meta) if meta.is_dir() => return Ok(false),
        Ok(_) => bail!("--dest-dir: {dir} exists and is not a directory"),
        Err(err) if err.kind() == std::io::ErrorKind::NotFound => {}
        Err(err) => bail!("--dest-dir: {dir}: {err}"),
    }
    match dir.parent() {
        Some(parent) if parent.starts_with(root) => {
            create_dir(root, parent, undo)?;
        }
        _ => bail!("--dest-dir: {dir} is not below {root}"),
    }
    std::fs::create_dir(dir).with_context(|| format!("--dest-dir: creating {dir}"))?;
    undo.push(Undo::RemoveDir(dir.to_owned()));
    Ok(true)
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

/// Writes one file outside `--dest-dir` (`--emit-infrastructure`) the same way as the tree:
/// through a flushed temporary sibling renamed into place, mode 0644. `flag` names the file in
/// errors.
pub fn write_file(path: &Utf8Path, bytes: &[u8], flag: &str) -> Result<()> {
    match std::fs::symlink_metadata(path) {
        Ok(meta) if meta.is_dir() => bail!("{flag} {path}: is a directory"),
        Ok(meta) if meta.file_type().is_symlink() => {
            bail!("{flag} {path}: is a symbolic link; refusing to replace it")
        }
        _ => {}
    }
    let file = File {
        bytes: bytes.to_vec(),
        mode: PUBLIC_MODE,
    };
    replace_file_as(path, &file, flag)
}

/// Replaces one file outside `--dest-dir` (`--ignition FILE`) with `file`, contents and mode,
/// through a flushed temporary sibling renamed into place, then flushes the folder: a crash
/// leaves the old file or the new one. `what` (a flag name) starts every error message.
pub fn replace_single_file(path: &Utf8Path, file: &File, what: &str) -> Result<()> {
    match std::fs::symlink_metadata(path) {
        Ok(meta) if meta.is_dir() => bail!("{what} {path}: is a directory"),
        Ok(meta) if meta.file_type().is_symlink() => {
            bail!("{what} {path}: is a symbolic link; refusing to replace it")
        }
        _ => {}
    }
    replace_file_as(path, file, what)?;
    if let Some(dir) = path.parent().filter(|d| !d.as_str().is_empty())
        && let Ok(handle) = std::fs::File::open(dir)
    {
        handle
            .sync_all()
            .with_context(|| format!("{what} {path}: flushing {dir}"))?;
    }
    Ok(())
}

/// Writes `file` to a temporary sibling, flushes it and renames it over `path`.
fn replace_file(path: &Utf8Path, file: &File) -> Result<()> {
    replace_file_as(path, file, "--dest-dir")
}

/// [`replace_file`], with errors prefixed by `what`.
fn replace_file_as(path: &Utf8Path, file: &File, what: &str) -> Result<()> {
    let dir = match path.parent() {
        Some(dir) if !dir.as_str().is_empty() => dir,
        Some(_) => Utf8Path::new("."),
        None => bail!("{what}: {path} has no parent directory"),
    };
    let mut temp = tempfile::Builder::new()
        .prefix(".ccm-render-")
        .tempfile_in(dir)
        .with_context(|| format!("{what}: creating a temporary file in {dir}"))?;
    temp.write_all(&file.bytes)
        .with_context(|| format!("{what}: writing {path}"))?;
    temp.as_file()
        .set_permissions(std::fs::Permissions::from_mode(file.mode))
        .with_context(|| format!("{what}: setting the mode of {path}"))?;
    temp.as_file()
        .sync_all()
        .with_context(|| format!("{what}: flushing {path}"))?;
    temp.persist(path)
        .map_err(|err| anyhow!("{what}: renaming into {path}: {}", err.error))?;
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

    fn utf8(dir: &tempfile::TempDir) -> Utf8PathBuf {
        Utf8Path::from_path(dir.path()).expect("utf8").to_owned()
    }

    #[test]
    fn plan_writes_nothing_and_sees_every_kind_of_change() {
        let dir = tempfile::tempdir().expect("tempdir");
        let dest = utf8(&dir).join("out");
        let fresh = plan(&sample_tree(), &dest, true).expect("plan");
        assert!(!dest.exists(), "plan created the directory");
        assert_eq!(fresh.missing_folders.len(), 3);
        assert!(fresh.entries.iter().all(|e| e.change == Change::Added));

        write(&sample_tree(), &dest).expect("writes");
        let clean = plan(&sample_tree(), &dest, true).expect("plan");
        assert!(!clean.has_changes(), "{clean:?}");

        std::fs::set_permissions(
            dest.join("config/cloud.conf"),
            std::fs::Permissions::from_mode(0o644),
        )
        .expect("chmod");
        std::fs::write(dest.join("manifests/stale.yaml"), "x\n").expect("stale");
        let without_prune = plan(&sample_tree(), &dest, false).expect("plan");
        let changes: Vec<_> = without_prune
            .entries
            .iter()
            .map(|e| (e.path.as_str(), e.change))
            .collect();
        assert_eq!(
            changes,
            [
                ("config/cloud.conf", Change::Changed),
                ("manifests/configmap-a.yaml", Change::Unchanged)
            ]
        );
        assert_eq!(without_prune.left, ["manifests/stale.yaml"]);
        let with_prune = plan(&sample_tree(), &dest, true).expect("plan");
        assert!(
            with_prune
                .entries
                .iter()
                .any(|e| e.path == "manifests/stale.yaml" && e.change == Change::Removed)
        );
    }

    #[test]
    fn prune_removes_only_stale_files_under_the_output_folders() {
        let dir = tempfile::tempdir().expect("tempdir");
        let dest = utf8(&dir);
        std::fs::create_dir_all(dest.join("secrets/old")).expect("mkdir");
        std::fs::create_dir_all(dest.join("manifests")).expect("mkdir");
        std::fs::write(dest.join("secrets/old/key"), "k").expect("seed");
        std::fs::write(dest.join("manifests/stale.yaml"), "x").expect("seed");
        std::fs::write(dest.join("README"), "not ours").expect("seed");
        let outside = tempfile::tempdir().expect("tempdir");
        std::fs::write(outside.path().join("target"), "keep").expect("seed");
        std::os::unix::fs::symlink(outside.path().join("target"), dest.join("manifests/link"))
            .expect("symlink");

        let kept = write(&sample_tree(), &dest).expect("writes");
        assert!(kept.removed.is_empty());
        assert!(dest.join("manifests/stale.yaml").exists());
        assert_eq!(kept.left.len(), 3, "{:?}", kept.left);

        let report = apply(&sample_tree(), &dest, true).expect("prunes");
        assert_eq!(report.removed, ["manifests/stale.yaml", "secrets/old/key"]);
        assert_eq!(report.left, ["manifests/link"]);
        assert!(!dest.join("secrets").exists(), "emptied secrets/ removed");
        assert!(dest.join("README").exists());
        assert!(dest.join("manifests/link").is_symlink());
        assert_eq!(
            std::fs::read_to_string(outside.path().join("target")).expect("kept"),
            "keep"
        );
    }

    #[test]
    fn a_failed_prune_restores_removed_files_and_written_ones() {
        let dir = tempfile::tempdir().expect("tempdir");
        let dest = utf8(&dir);
        std::fs::create_dir_all(dest.join("manifests")).expect("mkdir");
        std::fs::write(dest.join("manifests/a-stale.yaml"), "old").expect("seed");
        // A socket sorts after it and cannot be read as a file: the prune fails there.
        let _socket =
            std::os::unix::net::UnixListener::bind(dest.join("manifests/z.sock")).expect("socket");
        let err = apply(&sample_tree(), &dest, true).expect_err("fails");
        assert!(err.to_string().contains("z.sock"), "{err}");
        assert_eq!(
            std::fs::read_to_string(dest.join("manifests/a-stale.yaml")).expect("restored"),
            "old"
        );
        assert!(!dest.join("manifests/configmap-a.yaml").exists());
        assert!(!dest.join("config").exists());
    }

    #[test]
    fn a_symlinked_folder_is_never_followed_by_prune() {
        let dir = tempfile::tempdir().expect("tempdir");
        let dest = utf8(&dir);
        let outside = tempfile::tempdir().expect("tempdir");
        std::os::unix::fs::symlink(outside.path(), dest.join("secrets")).expect("symlink");
        std::fs::write(outside.path().join("x"), "keep").expect("seed");
        let planned = plan(&sample_tree(), &dest, true).expect("plan");
        assert!(planned.entries.iter().all(|e| e.change != Change::Removed));
        assert_eq!(planned.left, ["secrets"]);
        let report = apply(&sample_tree(), &dest, true).expect("writes");
        assert!(report.removed.is_empty());
        assert!(outside.path().join("x").exists());
        // A symlinked folder the render writes into is refused, as before.
        std::fs::remove_dir_all(dest.join("config")).expect("rm");
        std::os::unix::fs::symlink(outside.path(), dest.join("config")).expect("symlink");
        let err = plan(&sample_tree(), &dest, true).expect_err("refused");
        assert!(err.to_string().contains("symbolic link"), "{err}");
    }
}
