//! How a render is laid out as files: one object per file under `bootstrap/`, `manifests/`,
//! `config/` and (with `--credentials`) `secrets/`, with the names and modes of the CLI
//! contract. Pure: a [`Tree`] is built in memory and nothing here touches the disk.

use crate::render::Rendered;
use anyhow::{Result, bail};
use camino::Utf8PathBuf;
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};

/// The folders that always exist after a successful render (CLI contract).
pub(crate) const FOLDERS: [&str; 3] = ["bootstrap", "config", "manifests"];

/// The folder of credential files, present only with `--credentials` (CLI contract).
pub(crate) const SECRETS: &str = "secrets";

/// The folders `--prune` may remove files from: the ones this tool writes.
pub(crate) const PRUNABLE: [&str; 4] = ["bootstrap", "config", "manifests", "secrets"];

/// Mode of `secrets/` when ccm-render creates it.
pub(crate) const SECRETS_DIR_MODE: u32 = 0o700;

/// Mode of manifests and static pods.
pub(crate) const PUBLIC_MODE: u32 = 0o644;
/// Mode of the cloud config, credentials and Secret manifests.
pub(crate) const PRIVATE_MODE: u32 = 0o600;

/// One output file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct File {
    /// Contents.
    pub bytes: Vec<u8>,
    /// Unix permission bits.
    pub(crate) mode: u32,
}

/// A rendered tree: paths relative to `--dest-dir`, in sorted order.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Tree {
    /// Files by relative path.
    pub files: BTreeMap<Utf8PathBuf, File>,
    /// The folders that exist after writing the tree, even when empty: [`FOLDERS`] for a render
    /// (the CLI contract), plus `secrets/` with `--credentials`.
    pub(crate) folders: Vec<&'static str>,
    /// The object each YAML file holds, by the same path (for `--output json`).
    pub(crate) objects: BTreeMap<Utf8PathBuf, ObjectRef>,
}

impl Tree {
    /// The folders that exist after writing this tree (see [`Tree::folders`](Self#structfield.folders)).
    pub(crate) fn folders(&self) -> Vec<&'static str> {
        self.folders.clone()
    }
}

/// Which Kubernetes object a file holds.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct ObjectRef {
    /// `apiVersion`.
    pub(crate) api_version: String,
    /// `kind`.
    pub(crate) kind: String,
    /// `metadata.name`.
    pub(crate) name: String,
    /// `metadata.namespace`, for namespaced objects.
    pub(crate) namespace: Option<String>,
}

impl ObjectRef {
    fn of(object: &Value) -> Self {
        let text = |path: &[&str]| {
            ccm_catalogue::json_fields::at(object, path)
                .and_then(Value::as_str)
                .map(String::from)
        };
        Self {
            api_version: text(&["apiVersion"]).unwrap_or_default(),
            kind: ccm_catalogue::json_fields::kind_of(object).to_string(),
            name: ccm_catalogue::json_fields::name_of(object).to_string(),
            namespace: text(&["metadata", "namespace"]),
        }
    }
}

/// Lays a render out as files: one object per file, named from kind and name (and namespace
/// when two objects would otherwise share a name).
pub fn tree(rendered: &Rendered) -> Result<Tree> {
    // Gathered in lists and made maps once, from lists sorted by their text: a path's own
    // ordering compares it component by component (about a thousand instructions a time), and
    // inserting one by one was a tenth of a render (callgrind, Azure). Sorting by text gives the
    // same order for these paths (one folder name, then a file name, no name a prefix of
    // another), and the map's own sort then finds them sorted.
    let mut files = Vec::new();
    let mut refs = Vec::new();
    for (folder, objects) in [
        ("bootstrap", &rendered.bootstrap),
        ("manifests", &rendered.manifests),
    ] {
        for (name, object) in file_names(objects)? {
            let text = ccm_catalogue::yaml::to_string(object)?;
            let path = super::names::join(camino::Utf8Path::new(folder), name);
            refs.push((path.clone(), ObjectRef::of(object)));
            // A Secret manifest (OCI's cloud-provider.yaml) can hold a cloud key: owner-only,
            // like config/cloud.conf.
            let mode = if ccm_catalogue::json_fields::kind_of(object) == "Secret" {
                PRIVATE_MODE
            } else {
                PUBLIC_MODE
            };
            files.push((
                path,
                File {
                    bytes: text.into_bytes(),
                    mode,
                },
            ));
        }
    }
    for (name, text) in &rendered.config_files {
        files.push((
            super::names::join(camino::Utf8Path::new("config"), name),
            File {
                bytes: text.clone().into_bytes(),
                mode: PRIVATE_MODE,
            },
        ));
    }
    if let Some(secret_files) = &rendered.secret_files {
        for (name, value) in secret_files {
            files.push((
                super::names::join(camino::Utf8Path::new(SECRETS), name),
                File {
                    bytes: value.bytes().to_vec(),
                    mode: PRIVATE_MODE,
                },
            ));
        }
    }
    files.sort_by(|a, b| a.0.as_str().cmp(b.0.as_str()));
    refs.sort_by(|a, b| a.0.as_str().cmp(b.0.as_str()));
    Ok(Tree {
        files: files.into_iter().collect(),
        objects: refs.into_iter().collect(),
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
    let short: Vec<String> = objects
        .iter()
        // Joined with concat, not format!, whose machinery cost about a thousand instructions
        // a name (callgrind, Azure: 28 calls, 27 K).
        .map(|o| {
            sanitize(
                &[
                    ccm_catalogue::json_fields::kind_of(o),
                    "-",
                    ccm_catalogue::json_fields::name_of(o),
                ]
                .concat(),
            )
        })
        .collect();
    let mut counts: BTreeMap<&str, usize> = BTreeMap::new();
    for base in &short {
        *counts.entry(base).or_default() += 1;
    }
    let mut seen = BTreeSet::new();
    let mut out = Vec::with_capacity(objects.len());
    for (object, base) in objects.iter().zip(&short) {
        let stem = if counts.get(base.as_str()).copied().unwrap_or_default() > 1 {
            let namespace = ccm_catalogue::json_fields::at(object, &["metadata", "namespace"])
                .and_then(Value::as_str)
                .unwrap_or("cluster");
            sanitize(&format!(
                "{}-{namespace}-{}",
                ccm_catalogue::json_fields::kind_of(object),
                ccm_catalogue::json_fields::name_of(object)
            ))
        } else {
            base.clone()
        };
        let name = stem + ".yaml";
        if !seen.insert(name.clone()) {
            bail!("two rendered objects would both be written to {name}");
        }
        out.push((name, object));
    }
    Ok(out)
}

fn sanitize(stem: &str) -> String {
    if stem.is_ascii() {
        // Byte by byte: the same result, without decoding and encoding each character.
        let bytes = stem
            .bytes()
            .map(|b| match b.to_ascii_lowercase() {
                b @ (b'a'..=b'z' | b'0'..=b'9' | b'.' | b'-') => b,
                _ => b'_',
            })
            .collect();
        return String::from_utf8(bytes).unwrap_or_default();
    }
    stem.chars()
        .map(|c| match c.to_ascii_lowercase() {
            c @ ('a'..='z' | '0'..='9' | '.' | '-') => c,
            _ => '_',
        })
        .collect()
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
}
