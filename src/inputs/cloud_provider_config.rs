//! The cloud provider config: the installer's `openshift-config/cloud-provider-config`
//! ConfigMap, the `openshift-config-managed/kube-cloud-config` ConfigMap, or a raw `cloud.conf`
//! file. A file whose documents include a ConfigMap is read as a ConfigMap; anything else is the
//! raw cloud config text.

use super::{kind_of, pick_object, read_text};
use anyhow::{Result, bail};
use camino::Utf8Path;
use serde::Deserialize;
use std::collections::BTreeMap;

/// Where the cloud config comes from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Source {
    /// A ConfigMap: its data keys, all of which are carried into the `cloud-conf` ConfigMap.
    ConfigMap {
        /// `metadata.namespace/metadata.name`, for messages.
        origin: String,
        /// `data`.
        data: BTreeMap<String, String>,
    },
    /// A raw cloud config file.
    Raw(String),
}

#[derive(Deserialize)]
struct ConfigMap {
    #[serde(default)]
    metadata: Metadata,
    #[serde(default)]
    data: Option<BTreeMap<String, String>>,
}

#[derive(Deserialize, Default)]
struct Metadata {
    #[serde(default)]
    name: String,
    #[serde(default)]
    namespace: String,
}

/// Reads the cloud config source from a file.
pub fn load(path: &Utf8Path) -> Result<Source> {
    let text = read_text(path)?;
    // A raw INI cloud.conf is usually not YAML at all, and a raw JSON or YAML one (Azure,
    // vSphere) has no `kind`: only a stream holding a ConfigMap is taken as one.
    let Ok(docs) = crate::yaml::documents(&text) else {
        return Ok(Source::Raw(text));
    };
    if !docs.iter().any(|d| kind_of(d) == "ConfigMap") {
        if let Some(kind) = docs.iter().map(kind_of).find(|k| !k.is_empty()) {
            bail!("{path}: holds a {kind}, expected a ConfigMap or a raw cloud config file");
        }
        return Ok(Source::Raw(text));
    }
    let cm = pick_object(
        docs,
        "ConfigMap",
        &["cloud-provider-config", "kube-cloud-config"],
        path,
    )?;
    super::check_api_version(&cm, "", &["v1"], path)?;
    let cm: ConfigMap = super::typed(&cm, path)?;
    Ok(Source::ConfigMap {
        origin: format!("{}/{}", cm.metadata.namespace, cm.metadata.name),
        data: cm.data.unwrap_or_default(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn load_text(text: &str) -> Result<Source> {
        let dir = tempfile::tempdir().expect("tempdir");
        let file = dir.path().join("cloud");
        std::fs::write(&file, text).expect("write");
        load(Utf8Path::from_path(&file).expect("utf8"))
    }

    #[test]
    fn ini_file_is_raw() {
        let text = "[Global]\nZone = a # not a comment in YAML terms\n";
        assert_eq!(load_text(text).expect("ok"), Source::Raw(text.to_string()));
    }

    #[test]
    fn json_without_kind_is_raw() {
        let text = r#"{"cloud": "AzurePublicCloud"}"#;
        assert_eq!(load_text(text).expect("ok"), Source::Raw(text.to_string()));
    }

    #[test]
    fn configmap_keeps_every_key() {
        let text = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cloud-provider-config\n  namespace: openshift-config\ndata:\n  config: x\n  ca-bundle.pem: y\n";
        let Source::ConfigMap { origin, data } = load_text(text).expect("ok") else {
            panic!("not a ConfigMap");
        };
        assert_eq!(origin, "openshift-config/cloud-provider-config");
        assert_eq!(data.len(), 2);
    }

    #[test]
    fn other_kind_is_refused() {
        let err = load_text("apiVersion: v1\nkind: Secret\n").expect_err("secret");
        assert!(err.to_string().contains("holds a Secret"), "{err}");
    }
}
