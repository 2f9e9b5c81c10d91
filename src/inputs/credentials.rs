//! `--credentials`: a Kubernetes `Secret` holding cloud credentials, as the installer writes the
//! root credentials (`openshift/99_cloud-creds-secret.yaml`, namespace `kube-system`) or as a
//! manual-mode user creates the CCM's own secret.
//!
//! Secret values never appear in an error or a log line: parse errors keep only their
//! position, type errors name the key, and [`SecretValue`] prints as `<redacted>`.

use super::read_text;
use anyhow::{Result, anyhow, bail};
use base64::Engine as _;
use camino::{Utf8Path, Utf8PathBuf};
use ccm_catalogue::json_fields::{kind_of, name_of};
use serde_json::Value;
use std::collections::BTreeMap;

/// Bytes of one secret key. `Debug` never shows them.
#[derive(Clone, PartialEq, Eq)]
pub struct SecretValue(Vec<u8>);

impl SecretValue {
    /// Wraps secret bytes.
    pub(crate) fn new(bytes: Vec<u8>) -> Self {
        Self(bytes)
    }

    /// The bytes.
    pub fn bytes(&self) -> &[u8] {
        &self.0
    }

    /// The value as UTF-8 text; the error names only `what`.
    pub(crate) fn text(&self, what: &str) -> Result<&str> {
        std::str::from_utf8(&self.0).map_err(|_| anyhow!("{what} is not UTF-8 text"))
    }
}

impl std::fmt::Debug for SecretValue {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("<redacted>")
    }
}

/// One Secret from the file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Secret {
    /// `metadata.namespace` (`default` when unset, as the API server would place it).
    pub(crate) namespace: String,
    /// `metadata.name`.
    pub(crate) name: String,
    /// `data` (decoded) merged with `stringData`, which wins, as the API server merges them.
    pub data: BTreeMap<String, SecretValue>,
}

impl Secret {
    /// `namespace/name`.
    pub(crate) fn id(&self) -> String {
        format!("{}/{}", self.namespace, self.name)
    }
}

/// What `--credentials` held: every Secret of the file (a stream may hold several; the provider
/// picks the one it reads).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Credentials {
    /// The file, for messages.
    pub(crate) path: Utf8PathBuf,
    /// The Secrets, in file order.
    pub secrets: Vec<Secret>,
}

/// The documents of a file that holds Secrets. A YAML error could quote a scalar from the file,
/// which may be a secret: it keeps only the position it reports, and says why (`holder`).
pub(crate) fn documents_holding_secrets(
    text: &str,
    path: &Utf8Path,
    holder: &str,
) -> Result<Vec<Value>> {
    ccm_catalogue::yaml::documents(text).map_err(|err| {
        let message = err.to_string();
        let position = message
            .find(" at line ")
            .map(|i| message[i..].to_string())
            .unwrap_or_default();
        anyhow!("{path}: not valid YAML or JSON{position} (details withheld: {holder})")
    })
}

/// Reads `--credentials`.
pub(crate) fn load(path: &Utf8Path) -> Result<Credentials> {
    let text = read_text(path)?;
    parse(&text, path)
}

/// Parses the text of `--credentials`.
pub fn parse(text: &str, path: &Utf8Path) -> Result<Credentials> {
    let docs = documents_holding_secrets(text, path, "the file holds secrets")?;
    let mut secrets = Vec::new();
    let mut kinds = Vec::new();
    for doc in &docs {
        if kind_of(doc) == "Secret" {
            secrets.push(secret(doc, path)?);
        } else {
            kinds.push(kind_of(doc).to_string());
        }
    }
    if secrets.is_empty() {
        kinds.sort_unstable();
        kinds.dedup();
        if kinds.is_empty() {
            bail!("{path}: no Secret object (the file holds no document)");
        }
        bail!(
            "{path}: no Secret object (the file holds {})",
            kinds.join(", ")
        );
    }
    Ok(Credentials {
        path: path.to_owned(),
        secrets,
    })
}

/// One Secret document, checked and decoded (also the Secrets of a `--hosted-cluster` stream).
pub(crate) fn secret(doc: &Value, path: &Utf8Path) -> Result<Secret> {
    let api_version = doc.get("apiVersion").and_then(Value::as_str);
    if api_version != Some("v1") {
        bail!(
            "{path}: Secret {}: apiVersion {:?} is not v1",
            name_of(doc),
            api_version.unwrap_or_default()
        );
    }
    let name = name_of(doc).to_string();
    if name.is_empty() {
        bail!("{path}: a Secret has no metadata.name");
    }
    let namespace = match doc.pointer("/metadata/namespace") {
        None | Some(Value::Null) => "default".to_string(),
        Some(Value::String(ns)) => ns.clone(),
        Some(_) => bail!("{path}: Secret {name}: metadata.namespace: expected a string"),
    };
    let id = format!("{namespace}/{name}");
    let mut data = BTreeMap::new();
    for (field, decode) in [("data", true), ("stringData", false)] {
        let entries = match doc.get(field) {
            None | Some(Value::Null) => continue,
            Some(Value::Object(entries)) => entries,
            Some(other) => bail!(
                "{path}: Secret {id}: {field}: expected a mapping, found {}",
                ccm_catalogue::json_fields::type_name(other)
            ),
        };
        for (key, value) in entries {
            // Type and encoding errors name the key, never the value.
            let Value::String(text) = value else {
                bail!(
                    "{path}: Secret {id}: {field}.{key}: expected a string, found {}",
                    ccm_catalogue::json_fields::type_name(value)
                );
            };
            let bytes = if decode {
                base64::engine::general_purpose::STANDARD
                    .decode(text.trim())
                    .map_err(|_| anyhow!("{path}: Secret {id}: data.{key}: not valid base64"))?
            } else {
                text.clone().into_bytes()
            };
            data.insert(key.clone(), SecretValue(bytes));
        }
    }
    Ok(Secret {
        namespace,
        name,
        data,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p() -> &'static Utf8Path {
        Utf8Path::new("creds.yaml")
    }

    const GCP: &str = "kind: Secret
apiVersion: v1
metadata:
  namespace: kube-system
  name: gcp-credentials
data:
  service_account.json: eyJ0eXBlIjoic2VydmljZV9hY2NvdW50In0=
";

    #[test]
    fn data_is_base64_decoded() {
        let creds = parse(GCP, p()).expect("parses");
        let secret = &creds.secrets[0];
        assert_eq!(secret.id(), "kube-system/gcp-credentials");
        assert_eq!(
            secret.data["service_account.json"].bytes(),
            br#"{"type":"service_account"}"#
        );
    }

    #[test]
    fn string_data_wins_over_data_as_the_api_server_merges_them() {
        let text = "apiVersion: v1\nkind: Secret\nmetadata: {name: s}\ndata: {k: YQ==}\nstringData: {k: b}\n";
        let creds = parse(text, p()).expect("parses");
        assert_eq!(creds.secrets[0].data["k"].bytes(), b"b");
        assert_eq!(creds.secrets[0].namespace, "default");
    }

    #[test]
    fn errors_never_show_a_secret_value() {
        let cases = [
            // Not base64.
            "apiVersion: v1\nkind: Secret\nmetadata: {name: s}\ndata: {k: 'hunter2!!'}\n",
            // Wrong type.
            "apiVersion: v1\nkind: Secret\nmetadata: {name: s}\nstringData: {k: [hunter2]}\n",
            // Broken YAML right after the secret.
            "apiVersion: v1\nkind: Secret\nmetadata: {name: s}\nstringData: {k: hunter2, k: hunter2}\n",
            "apiVersion: v1\nkind: Secret\nmetadata: {name: s}\nstringData: {k: \"hunter2\n",
        ];
        for text in cases {
            let err = format!("{:#}", parse(text, p()).expect_err("bad"));
            assert!(!err.contains("hunter2"), "{err}");
            assert!(err.starts_with("creds.yaml: "), "{err}");
        }
    }

    #[test]
    fn debug_output_is_redacted() {
        let creds = parse(GCP, p()).expect("parses");
        let shown = format!("{creds:?}");
        assert!(shown.contains("<redacted>"), "{shown}");
        assert!(!shown.contains("service_account\""), "{shown}");
    }

    #[test]
    fn a_file_without_a_secret_names_what_it_holds() {
        let err = parse("apiVersion: v1\nkind: ConfigMap\n", p()).expect_err("no secret");
        assert_eq!(
            format!("{err:#}"),
            "creds.yaml: no Secret object (the file holds ConfigMap)"
        );
    }

    #[test]
    fn wrong_api_version_is_an_error() {
        let err = parse("apiVersion: v2\nkind: Secret\nmetadata: {name: s}\n", p())
            .expect_err("bad version");
        assert!(format!("{err:#}").contains("apiVersion \"v2\""), "{err}");
    }
}
