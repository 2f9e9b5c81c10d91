//! The cloud provider config: the installer's `openshift-config/cloud-provider-config`
//! ConfigMap, the `openshift-config-managed/kube-cloud-config` ConfigMap, or a raw `cloud.conf`
//! file. A file whose documents include a ConfigMap is read as a ConfigMap; anything else is the
//! raw cloud config text.

use super::{pick_object, read_text};
use anyhow::{Context as _, Result, bail};
use camino::Utf8Path;
use ccm_catalogue::json_fields::kind_of;
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

/// The cloud config after CCCMO's source selection: the text to transform, and the other keys
/// of the source ConfigMap, which go into the `cloud-conf` ConfigMap unchanged.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Selected {
    /// The `cloud.conf` text before the platform transform.
    pub text: String,
    /// Every other key (`ca-bundle.pem`, `endpoints`, …).
    pub(crate) other_keys: BTreeMap<String, String>,
}

/// The key CCCMO reads first, and writes the transformed config under.
pub(crate) const CLOUD_CONF_KEY: &str = "cloud.conf";

impl Source {
    /// Picks the cloud config text as CCCMO's sync controller does
    /// (pkg/controllers/cloud_config_sync_controller.go `prepareSourceConfigMap`): the
    /// `cloud.conf` key if present; else the key the Infrastructure names in
    /// `spec.cloudConfig.key` (moved, not copied), which must then exist; else empty.
    pub fn select(&self, infrastructure_key: &str, path: &Utf8Path) -> Result<Selected> {
        let (origin, data) = match self {
            Self::Raw(text) => {
                return Ok(Selected {
                    text: text.clone(),
                    other_keys: BTreeMap::new(),
                });
            }
            Self::ConfigMap { origin, data } => (origin, data),
        };
        let mut other_keys = data.clone();
        if let Some(text) = other_keys.remove(CLOUD_CONF_KEY) {
            return Ok(Selected { text, other_keys });
        }
        if infrastructure_key.is_empty() {
            return Ok(Selected {
                text: String::new(),
                other_keys,
            });
        }
        if let Some(text) = other_keys.remove(infrastructure_key) {
            return Ok(Selected { text, other_keys });
        }
        let keys: Vec<String> = data.keys().map(|key| super::shown(key)).collect();
        bail!(
            "{path}: ConfigMap {origin} has no key {infrastructure_key:?}, which the Infrastructure names in spec.cloudConfig.key (keys: {})",
            if keys.is_empty() {
                "none".to_string()
            } else {
                keys.join(", ")
            }
        )
    }
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
pub(crate) fn load(path: &Utf8Path) -> Result<Source> {
    parse(read_text(path)?, path)
}

/// [`load`] on text already read (`path` only names it in errors).
pub fn parse(text: String, path: &Utf8Path) -> Result<Source> {
    // A raw INI cloud.conf is usually not YAML at all, and a raw JSON or YAML one (Azure,
    // vSphere) has no `kind`: only a stream holding a ConfigMap is taken as one.
    let docs = match ccm_catalogue::yaml::documents(&text) {
        Ok(docs) => docs,
        // A file with a top-level `kind:` line is a Kubernetes object however broken (no INI,
        // JSON or vSphere YAML cloud config has one): report the YAML error, rather than let
        // the transform read a broken ConfigMap as a cloud config.
        Err(err) if text.lines().any(|line| line.starts_with("kind:")) => {
            return Err(err).with_context(|| format!("{path}: not valid YAML or JSON"));
        }
        Err(_) => return Ok(Source::Raw(text)),
    };
    if !docs.iter().any(|d| kind_of(d) == "ConfigMap") {
        if let Some(kind) = docs.iter().map(kind_of).find(|k| !k.is_empty()) {
            bail!(
                "{path}: holds a {}, expected a ConfigMap or a raw cloud config file",
                super::shown(kind)
            );
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
    let cm: ConfigMap = ccm_catalogue::json_fields::typed(&cm, path)?;
    Ok(Source::ConfigMap {
        origin: format!(
            "{}/{}",
            super::shown(&cm.metadata.namespace),
            super::shown(&cm.metadata.name)
        ),
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

    fn configmap(pairs: &[(&str, &str)]) -> Source {
        Source::ConfigMap {
            origin: "openshift-config/cloud-provider-config".into(),
            data: pairs
                .iter()
                .map(|(k, v)| ((*k).to_string(), (*v).to_string()))
                .collect(),
        }
    }

    #[test]
    fn cloud_conf_key_wins_and_other_keys_are_kept() {
        let s = configmap(&[("cloud.conf", "a"), ("config", "b"), ("ca-bundle.pem", "c")]);
        let picked = s.select("config", Utf8Path::new("cm.yaml")).expect("ok");
        assert_eq!(picked.text, "a");
        assert_eq!(picked.other_keys.len(), 2, "config and ca-bundle.pem stay");
    }

    #[test]
    fn infrastructure_key_is_moved_to_cloud_conf() {
        let s = configmap(&[("config", "b"), ("endpoints", "e")]);
        let picked = s.select("config", Utf8Path::new("cm.yaml")).expect("ok");
        assert_eq!(picked.text, "b");
        assert_eq!(picked.other_keys.keys().collect::<Vec<_>>(), ["endpoints"]);
    }

    #[test]
    fn infrastructure_key_missing_from_the_configmap_is_an_error() {
        let s = configmap(&[("other", "x")]);
        let err = s
            .select("config", Utf8Path::new("cm.yaml"))
            .expect_err("missing");
        assert_eq!(
            format!("{err:#}"),
            "cm.yaml: ConfigMap openshift-config/cloud-provider-config has no key \"config\", which the Infrastructure names in spec.cloudConfig.key (keys: other)"
        );
    }

    #[test]
    fn no_key_anywhere_gives_an_empty_config() {
        let picked = configmap(&[("x", "y")])
            .select("", Utf8Path::new("cm.yaml"))
            .expect("ok");
        assert_eq!(picked.text, "");
        assert_eq!(picked.other_keys.len(), 1);
    }

    #[test]
    fn raw_file_is_the_config() {
        let picked = Source::Raw("[Global]\n".into())
            .select("config", Utf8Path::new("c"))
            .expect("ok");
        assert_eq!(picked.text, "[Global]\n");
    }

    #[test]
    fn broken_configmap_is_a_yaml_error_not_a_raw_config() {
        let text = "apiVersion: v1\nkind: ConfigMap\ndata:\n  config: a\n  config: b\n";
        let err = load_text(text).expect_err("duplicate key");
        assert!(
            format!("{err:#}").contains("duplicate key \"config\""),
            "{err}"
        );
    }

    #[test]
    fn other_kind_is_refused() {
        let err = load_text("apiVersion: v1\nkind: Secret\n").expect_err("secret");
        assert!(format!("{err:#}").contains("holds a Secret"), "{err}");
    }
}
