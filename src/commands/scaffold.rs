//! `ccm-render provider new NAME`: a complete provider folder for platform External, ready to
//! check and render, for a cloud vendor to adapt without touching Rust.
//!
//! The files are the templates under `src/commands/scaffold/`, with the provider's name filled in. The
//! result is parsed with [`ccm_catalogue::providers::parse`] before anything is written, so `provider
//! new` can never write a folder that `provider check` refuses.
//!
//! This is the one place where YAML is produced as text rather than from objects, on purpose:
//! the scaffold's comments are its documentation and would not survive a round trip through
//! objects. The only values substituted are the name, already checked to be a DNS label, and
//! an images.json key made of its letters and digits: neither can add a line or a field.

use crate::output::{File, PUBLIC_MODE, Tree};
use anyhow::{Context as _, Result};
use camino::Utf8PathBuf;
use ccm_catalogue::provider_dir::FolderText;

/// Template files: path in the provider folder, text with `{{name}}` and `{{imageKey}}`.
const TEMPLATES: [(&str, &str); 5] = [
    ("provider.yaml", include_str!("scaffold/provider.yaml")),
    ("bootstrap/pod.yaml", include_str!("scaffold/pod.yaml")),
    (
        "manifests/clusterrole.yaml",
        include_str!("scaffold/clusterrole.yaml"),
    ),
    (
        "manifests/clusterrolebinding.yaml",
        include_str!("scaffold/clusterrolebinding.yaml"),
    ),
    (
        "manifests/deployment.yaml",
        include_str!("scaffold/deployment.yaml"),
    ),
];

/// The images.json key a new provider's CCM image goes under: `cloudControllerManager` and the
/// name in upper camel case (`my-cloud` → `cloudControllerManagerMyCloud`), as CCCMO names its
/// keys.
pub(crate) fn image_key(name: &str) -> String {
    let mut key = String::from("cloudControllerManager");
    for part in name.split('-').filter(|p| !p.is_empty()) {
        let mut chars = part.chars();
        if let Some(first) = chars.next() {
            key.extend(first.to_uppercase());
            key.push_str(chars.as_str());
        }
    }
    key
}

/// The files of a new provider `name` (a DNS label, checked by the caller), as text.
pub(crate) fn files(name: &str, origin: &str) -> FolderText {
    let key = image_key(name);
    FolderText {
        origin: origin.to_string(),
        files: TEMPLATES
            .iter()
            .map(|(path, text)| {
                let text = text.replace("{{name}}", name).replace("{{imageKey}}", &key);
                ((*path).to_string(), text)
            })
            .collect(),
    }
}

/// The new provider as a tree for [`crate::output::write`], after checking it parses.
pub(crate) fn tree(name: &str, origin: &str) -> Result<Tree> {
    let folder = files(name, origin);
    ccm_catalogue::providers::parse(&folder)
        .context("the scaffold does not check (a ccm-render bug)")?;
    Ok(Tree {
        files: folder
            .files
            .into_iter()
            .map(|(path, text)| {
                (
                    Utf8PathBuf::from(path),
                    File {
                        bytes: text.into_bytes(),
                        mode: PUBLIC_MODE,
                    },
                )
            })
            .collect(),
        objects: std::collections::BTreeMap::new(),
        // A provider folder: its bootstrap/ and manifests/ hold files; no empty config/.
        folders: Vec::new(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn image_keys_follow_cccmo_naming() {
        assert_eq!(image_key("acme"), "cloudControllerManagerAcme");
        assert_eq!(image_key("my-cloud"), "cloudControllerManagerMyCloud");
    }

    #[test]
    fn every_scaffold_parses_as_a_provider() {
        for name in ["acme", "my-cloud", "x1"] {
            let folder = files(name, &format!("providers/{name}"));
            let provider = ccm_catalogue::providers::parse(&folder).expect("scaffold checks");
            assert_eq!(provider.name(), name);
            assert_eq!(
                provider.spec().external_platform_name.as_deref(),
                Some(name)
            );
            assert!(folder.files.values().all(|t| !t.contains("{{")));
        }
    }
}
