//! Parsing one folder of text into a [`Provider`] (or the shared objects into [`Common`]), with
//! every check of [`super::check`] applied. Pure: the caller read the folder (from `assets/` in
//! build.rs, from disk for `--provider-dir` and `provider check`), so all three go through this
//! one function and a provider is held to the same rules wherever it comes from.

use super::check::{check_descriptor, check_object};
use super::descriptor::{Common, Descriptor, Provider};
use crate::provider_dir::FolderText;
use anyhow::{Context as _, Result, anyhow, bail};
use serde_json::Value;

/// The one object of a YAML file.
pub fn one_object(text: &str) -> Result<Value> {
    let docs = crate::yaml::documents(text).context("not valid YAML")?;
    match <[Value; 1]>::try_from(docs) {
        Ok([doc]) => Ok(doc),
        Err(docs) => bail!("holds {} objects, expected one", docs.len()),
    }
}

/// Whether `path` ends in one of `extensions` (any case).
fn has_extension(path: &str, extensions: &[&str]) -> bool {
    std::path::Path::new(path)
        .extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| extensions.iter().any(|x| e.eq_ignore_ascii_case(x)))
}

/// Whether a file of a provider folder is YAML that belongs in `folder`.
fn in_folder<'a>(path: &'a str, folder: &str) -> Option<&'a str> {
    let rest = path.strip_prefix(folder)?.strip_prefix('/')?;
    (!rest.contains('/')).then_some(rest)
}

/// Parses and checks one provider folder: `provider.yaml`, `bootstrap/*.yaml`,
/// `manifests/*.yaml` (`.yml` too; `*.md` files are documentation and skipped). Pure: the
/// folder was read by the caller. Errors name the file and, where there is one, the field.
pub fn parse(folder: &FolderText) -> Result<Provider> {
    let origin = folder.origin.as_str();
    let at = |file: &str| format!("{origin}/{file}");
    let mut manifests = Vec::new();
    let mut bootstrap = Vec::new();
    let mut has_descriptor = false;
    for (path, text) in &folder.files {
        let is_yaml = has_extension(path, &["yaml", "yml"]);
        if path == "provider.yaml" {
            has_descriptor = true;
        } else if is_yaml && in_folder(path, "manifests").is_some() {
            manifests.push((path, text));
        } else if is_yaml && in_folder(path, "bootstrap").is_some() {
            bootstrap.push((path, text));
        } else if !has_extension(path, &["md"]) {
            bail!(
                "{}: not part of a provider (a provider folder holds provider.yaml, bootstrap/*.yaml and manifests/*.yaml)",
                at(path)
            );
        }
    }
    let descriptor_path = at("provider.yaml");
    if !has_descriptor {
        bail!("{descriptor_path}: is missing");
    }
    let raw = raw_descriptor(folder)?;
    let parse_list = |list: Vec<(&String, &String)>| {
        list.into_iter()
            .map(|(path, text)| {
                let object = one_object(text).with_context(|| at(path))?;
                Ok(LocatedObject {
                    at: at(path),
                    object,
                })
            })
            .collect::<Result<Vec<_>>>()
    };
    let manifests = parse_list(manifests)?;
    let bootstrap = parse_list(bootstrap)?;
    check_parsed(&Parsed {
        folder: folder.name(),
        origin,
        descriptor_at: &descriptor_path,
        descriptor: &raw,
        manifests: &manifests,
        bootstrap: &bootstrap,
        release: None,
    })
}

/// An object of a provider, with what to call it in messages.
#[derive(Debug, Clone, PartialEq)]
pub struct LocatedObject {
    /// Its file, or the release file and field that made it.
    pub at: String,
    pub object: Value,
}

/// A provider's parts, parsed but not yet checked: what [`check_parsed`] turns into a
/// [`Provider`]. Each object comes with what to call it in messages (its file, or for an older
/// release's provider the release file and field that made it).
#[derive(Debug, Clone, Copy)]
pub struct Parsed<'a> {
    /// The provider's folder name (which `metadata.name` must equal).
    pub folder: &'a str,
    /// Where the provider comes from (`assets/aws`, `DIR/oci`).
    pub origin: &'a str,
    /// What to call `provider.yaml` in messages.
    pub descriptor_at: &'a str,
    /// `provider.yaml`, parsed.
    pub descriptor: &'a Value,
    /// `manifests/*.yaml`, in order.
    pub manifests: &'a [LocatedObject],
    /// `bootstrap/*.yaml`, likewise.
    pub bootstrap: &'a [LocatedObject],
    /// The release these parts are for when an older one, whose CCM its bootstrap pods are
    /// held to (`spec.ccm.releases`); None for the newest.
    pub release: Option<&'a str>,
}

/// Checks a provider's parsed parts with every rule of [`super::check`] (the descriptor, each
/// object against it, the TLS anchor) and holds its bootstrap pods to the CCM's command line
/// ([`super::command_line`]). [`parse`] and the releases of `crate::releases` both go
/// through it, so an older release's provider is held to exactly the rules of the newest one.
pub fn check_parsed(parts: &Parsed<'_>) -> Result<Provider> {
    let descriptor: Descriptor =
        crate::json_fields::typed(parts.descriptor, camino::Utf8Path::new(parts.descriptor_at))?;
    check_descriptor(&descriptor, parts.folder).with_context(|| parts.descriptor_at.to_string())?;
    let mut provider = Provider {
        descriptor,
        manifests: Vec::with_capacity(parts.manifests.len()),
        bootstrap: Vec::with_capacity(parts.bootstrap.len()),
        origin: parts.origin.to_string(),
    };
    let mut tls_script_seen = false;
    for (list, is_bootstrap) in [(parts.manifests, false), (parts.bootstrap, true)] {
        for LocatedObject { at, object } in list {
            let tls = check_object(object, &provider.descriptor.spec, is_bootstrap)
                .with_context(|| at.clone())?;
            tls_script_seen |= tls;
            if is_bootstrap && let Some(ccm) = &provider.descriptor.spec.ccm {
                let ccm = super::command_line::for_release(ccm, parts.release);
                super::command_line::check_pod(object, &ccm).with_context(|| at.clone())?;
            }
            if is_bootstrap {
                provider.bootstrap.push(object.clone());
            } else {
                provider.manifests.push(object.clone());
            }
        }
    }
    let tls = &provider.descriptor.spec.tls;
    if !provider.manifests.is_empty() && !tls_script_seen {
        bail!(
            "{}: spec.tls: no container {:?} in manifests/ has a script (command: [/bin/bash, -c, SCRIPT]) with a line starting with {:?}, where the TLS flags go",
            parts.descriptor_at,
            tls.container,
            tls.before
        );
    }
    Ok(provider)
}

/// A folder's `provider.yaml`, parsed but not checked.
fn raw_descriptor(folder: &FolderText) -> Result<Value> {
    let descriptor_path = format!("{}/provider.yaml", folder.origin);
    let text = folder
        .files
        .get("provider.yaml")
        .ok_or_else(|| anyhow!("{descriptor_path}: is missing"))?;
    one_object(text).with_context(|| descriptor_path.clone())
}

/// The objects every provider shares, from the `common/` folder of the assets.
pub fn parse_common(folder: &FolderText) -> Result<Common> {
    let object = |file: &str| {
        let path = format!("{}/{file}", folder.origin);
        let text = folder
            .files
            .get(file)
            .ok_or_else(|| anyhow!("{path}: is missing"))?;
        one_object(text).with_context(|| path.clone())
    };
    Ok(Common {
        pod_disruption_budget: object("poddisruptionbudget.yaml")?,
        service: object("service.yaml")?,
    })
}
