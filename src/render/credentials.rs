//! The files under `DIR/secrets/`: what a bootstrap pod reads from
//! `/etc/kubernetes/bootstrap-secrets/`, taken from the Secret `--credentials` holds, as the
//! provider descriptor's `bootstrap.credentials` says.
//!
//! Pure: the Secret was read by `inputs::credentials`. No error message quotes a value.

use crate::inputs::credentials::{Credentials, Secret, SecretValue};
use anyhow::{Context as _, Result, anyhow, bail};
use ccm_catalogue::providers::{AzureInjection, CredentialSource, CredentialsSpec};
use serde_json::Value;
use std::collections::BTreeMap;

/// The credential files for one provider: file name to contents, plus notes for the user.
#[derive(Debug, Default, PartialEq, Eq)]
pub(crate) struct SecretFiles {
    /// File name under `DIR/secrets/` to contents.
    pub(crate) files: BTreeMap<String, SecretValue>,
    /// Things worth telling the user.
    pub(crate) notes: Vec<String>,
}

/// Builds the files of `DIR/secrets/`. `cloud_conf` is the transformed cloud config, when one
/// was rendered (the Azure merge needs it).
pub(crate) fn secret_files(
    provider: &str,
    spec: &CredentialsSpec,
    credentials: &Credentials,
    cloud_conf: Option<&str>,
) -> Result<SecretFiles> {
    let path = &credentials.path;
    let secret = pick(spec, credentials).ok_or_else(|| {
        let held: Vec<String> = credentials.secrets.iter().map(Secret::id).collect();
        anyhow!(
            "{path}: {provider} reads the Secret {}, but the file holds {}",
            spec.secrets.join(" or "),
            held.join(", ")
        )
    })?;
    let mut out = SecretFiles::default();
    if spec.files.is_empty() {
        out.notes.push(format!(
            "{path}: {provider}: nothing written under secrets/: {}",
            spec.note.as_deref().unwrap_or_default()
        ));
    }
    for file in &spec.files {
        let contents = match &file.from {
            CredentialSource::Key(key) => secret
                .data
                .get(key)
                .cloned()
                .ok_or_else(|| anyhow!("{path}: Secret {} has no key {key:?}", secret.id()))?,
            CredentialSource::AzureCloudConfig(options) => {
                let cloud_conf = cloud_conf.ok_or_else(|| {
                    anyhow!(
                        "--credentials: {provider} merges the credentials into the cloud config for secrets/{}: pass --cloud-config too",
                        file.path
                    )
                })?;
                azure_cloud_config(cloud_conf, secret, *options)
                    .with_context(|| format!("{path}: Secret {}", secret.id()))?
            }
        };
        out.files.insert(file.path.clone(), contents);
    }
    Ok(out)
}

/// The Secret `name` in `namespace` for the post-install manifests, holding the keys that the
/// descriptor's credential files copy, from the `--credentials` Secret the provider reads.
pub(crate) fn post_install_secret(
    provider: &str,
    name: &str,
    spec: &CredentialsSpec,
    credentials: &Credentials,
    namespace: &str,
) -> Result<Value> {
    use base64::Engine as _;
    let path = &credentials.path;
    let secret = pick(spec, credentials).ok_or_else(|| {
        anyhow!(
            "{path}: {provider} reads the Secret {}, which the file does not hold",
            spec.secrets.join(" or ")
        )
    })?;
    let mut data = serde_json::Map::new();
    for file in &spec.files {
        if let CredentialSource::Key(key) = &file.from {
            let value = secret
                .data
                .get(key)
                .ok_or_else(|| anyhow!("{path}: Secret {} has no key {key:?}", secret.id()))?;
            data.insert(
                key.clone(),
                Value::String(base64::engine::general_purpose::STANDARD.encode(value.bytes())),
            );
        }
    }
    Ok(serde_json::json!({
        "apiVersion": "v1",
        "kind": "Secret",
        "metadata": {"name": name, "namespace": namespace},
        "type": "Opaque",
        "data": data,
    }))
}

/// The first Secret of the file that the provider reads, in the descriptor's order of preference.
fn pick<'a>(spec: &CredentialsSpec, credentials: &'a Credentials) -> Option<&'a Secret> {
    spec.secrets
        .iter()
        .find_map(|id| credentials.secrets.iter().find(|s| s.id() == *id))
}

/// The Azure cloud config with a service principal merged in, as
/// `cmd/azure-config-credentials-injector` in CCCMO does for the Deployments: `aadClientId` from
/// `azure_client_id`, `aadClientSecret` from `azure_client_secret`, and, with
/// `--disable-identity-extension-auth`, `useManagedIdentityExtension` turned off where present.
///
/// Workload identity (`azure_federated_token_file`) is refused: the token file is a projected
/// service account token, which a static pod cannot mount.
fn azure_cloud_config(
    cloud_conf: &str,
    secret: &Secret,
    options: AzureInjection,
) -> Result<SecretValue> {
    let text = |key: &str| -> Result<Option<String>> {
        secret
            .data
            .get(key)
            .map(|v| v.text(key).map(|t| t.trim().to_string()))
            .transpose()
    };
    let client_id = text("azure_client_id")?
        .filter(|v| !v.is_empty())
        .ok_or_else(|| anyhow!("azure_client_id is missing or empty"))?;
    if secret.data.contains_key("azure_federated_token_file") {
        bail!(
            "azure_federated_token_file: workload identity needs a projected service account token, which a static pod cannot mount; pass a Secret with azure_client_secret"
        );
    }
    let client_secret = text("azure_client_secret")?
        .filter(|v| !v.is_empty())
        .ok_or_else(|| anyhow!("azure_client_secret should be set up (missing or empty)"))?;
    let mut config: serde_json::Map<String, Value> = serde_json::from_str(cloud_conf)
        .context("the transformed cloud config is not a JSON object")?;
    config.insert("aadClientId".to_string(), Value::String(client_id));
    config.insert("aadClientSecret".to_string(), Value::String(client_secret));
    if options.disable_identity_extension_auth && config.contains_key("useManagedIdentityExtension")
    {
        config.insert(
            "useManagedIdentityExtension".to_string(),
            Value::Bool(false),
        );
    }
    let mut bytes = serde_json::to_vec(&config)?;
    bytes.push(b'\n');
    Ok(SecretValue::new(bytes))
}

#[cfg(test)]
mod tests {
    use super::*;
    use camino::Utf8PathBuf;
    use ccm_catalogue::providers::CredentialFile;

    fn secret(ns: &str, name: &str, data: &[(&str, &str)]) -> Secret {
        Secret {
            namespace: ns.to_string(),
            name: name.to_string(),
            data: data
                .iter()
                .map(|(k, v)| ((*k).to_string(), SecretValue::new(v.as_bytes().to_vec())))
                .collect(),
        }
    }

    fn creds(secrets: Vec<Secret>) -> Credentials {
        Credentials {
            path: Utf8PathBuf::from("creds.yaml"),
            secrets,
        }
    }

    fn key_spec(secrets: &[&str], file: &str, key: &str) -> CredentialsSpec {
        CredentialsSpec {
            secrets: secrets.iter().map(ToString::to_string).collect(),
            files: vec![CredentialFile {
                path: file.to_string(),
                from: CredentialSource::Key(key.to_string()),
            }],
            note: None,
            post_install_secret: None,
        }
    }

    fn azure_spec(disable: bool) -> CredentialsSpec {
        CredentialsSpec {
            secrets: vec!["kube-system/azure-credentials".to_string()],
            files: vec![CredentialFile {
                path: "cloud.conf".to_string(),
                from: CredentialSource::AzureCloudConfig(AzureInjection {
                    disable_identity_extension_auth: disable,
                }),
            }],
            note: None,
            post_install_secret: None,
        }
    }

    fn text(files: &SecretFiles, name: &str) -> String {
        String::from_utf8(files.files[name].bytes().to_vec()).expect("utf8")
    }

    #[test]
    fn a_key_is_copied_from_the_preferred_secret() {
        let spec = key_spec(
            &[
                "kube-system/gcp-credentials",
                "ns/gcp-ccm-cloud-credentials",
            ],
            "service_account.json",
            "service_account.json",
        );
        let held = creds(vec![
            secret(
                "ns",
                "gcp-ccm-cloud-credentials",
                &[("service_account.json", "B")],
            ),
            secret(
                "kube-system",
                "gcp-credentials",
                &[("service_account.json", "A")],
            ),
        ]);
        let files = secret_files("gcp", &spec, &held, None).expect("renders");
        assert_eq!(text(&files, "service_account.json"), "A");
    }

    #[test]
    fn a_secret_the_provider_does_not_read_is_named_in_the_error() {
        let spec = key_spec(&["kube-system/gcp-credentials"], "f", "k");
        let held = creds(vec![secret("kube-system", "aws-creds", &[("k", "v")])]);
        let err = secret_files("gcp", &spec, &held, None).expect_err("wrong secret");
        assert_eq!(
            format!("{err:#}"),
            "creds.yaml: gcp reads the Secret kube-system/gcp-credentials, but the file holds kube-system/aws-creds"
        );
    }

    #[test]
    fn a_missing_key_is_named_without_any_value() {
        let spec = key_spec(&["kube-system/s"], "clouds.yaml", "clouds.yaml");
        let held = creds(vec![secret("kube-system", "s", &[("other", "hunter2")])]);
        let err = secret_files("openstack", &spec, &held, None).expect_err("no key");
        assert_eq!(
            format!("{err:#}"),
            "creds.yaml: Secret kube-system/s has no key \"clouds.yaml\""
        );
    }

    #[test]
    fn providers_without_files_write_nothing_and_say_why() {
        let spec = CredentialsSpec {
            secrets: vec!["kube-system/aws-creds".to_string()],
            files: vec![],
            note: Some("instance profile".to_string()),
            post_install_secret: None,
        };
        let held = creds(vec![secret("kube-system", "aws-creds", &[])]);
        let files = secret_files("aws", &spec, &held, None).expect("renders");
        assert!(files.files.is_empty());
        assert!(files.notes[0].ends_with("instance profile"), "{files:?}");
    }

    const AZURE: &str =
        r#"{"cloud":"AzurePublicCloud","useManagedIdentityExtension":true,"subscriptionId":"s"}"#;

    fn azure_secret(extra: &[(&str, &str)]) -> Credentials {
        let mut data = vec![
            ("azure_client_id", "id-1"),
            ("azure_client_secret", "hunter2"),
            ("azure_tenant_id", "t"),
        ];
        data.extend_from_slice(extra);
        creds(vec![secret("kube-system", "azure-credentials", &data)])
    }

    #[test]
    fn azure_merges_the_service_principal_like_the_injector() {
        let files = secret_files("azure", &azure_spec(true), &azure_secret(&[]), Some(AZURE))
            .expect("renders");
        let merged: Value = serde_json::from_str(&text(&files, "cloud.conf")).expect("json");
        assert_eq!(merged["aadClientId"], "id-1");
        assert_eq!(merged["aadClientSecret"], "hunter2");
        assert_eq!(merged["useManagedIdentityExtension"], false);
        assert_eq!(merged["subscriptionId"], "s");
        // The transform's key order is kept; the injected keys come last.
        assert!(
            text(&files, "cloud.conf").starts_with(r#"{"cloud":"AzurePublicCloud","#),
            "{}",
            text(&files, "cloud.conf")
        );
    }

    #[test]
    fn azure_stack_hub_keeps_the_managed_identity_setting() {
        let files = secret_files(
            "azurestackhub",
            &azure_spec(false),
            &azure_secret(&[]),
            Some(AZURE),
        )
        .expect("renders");
        let merged: Value = serde_json::from_str(&text(&files, "cloud.conf")).expect("json");
        assert_eq!(merged["useManagedIdentityExtension"], true);
    }

    #[test]
    fn azure_needs_the_cloud_config() {
        let err = secret_files("azure", &azure_spec(true), &azure_secret(&[]), None)
            .expect_err("no cloud config");
        assert!(
            format!("{err:#}").contains("pass --cloud-config too"),
            "{err}"
        );
    }

    #[test]
    fn azure_refuses_workload_identity_for_a_static_pod() {
        let held = azure_secret(&[("azure_federated_token_file", "/var/run/token")]);
        let err = secret_files("azure", &azure_spec(true), &held, Some(AZURE))
            .expect_err("workload identity");
        assert!(
            format!("{err:#}").contains("static pod cannot mount"),
            "{err}"
        );
    }

    #[test]
    fn azure_without_a_client_secret_says_so_like_the_injector() {
        let held = creds(vec![secret(
            "kube-system",
            "azure-credentials",
            &[("azure_client_id", "id")],
        )]);
        let err =
            secret_files("azure", &azure_spec(true), &held, Some(AZURE)).expect_err("no secret");
        assert!(
            format!("{err:#}").contains("azure_client_secret should be set up"),
            "{err}"
        );
    }

    #[test]
    fn the_post_install_secret_copies_only_the_keys_the_files_read() {
        let spec = key_spec(
            &["kube-system/digitalocean"],
            "digitalocean-access-token",
            "access-token",
        );
        let held = creds(vec![secret(
            "kube-system",
            "digitalocean",
            &[("access-token", "t0ken"), ("other", "x")],
        )]);
        let object = post_install_secret("digitalocean", "digitalocean", &spec, &held, "ns")
            .expect("renders");
        assert_eq!(
            object,
            serde_json::json!({
                "apiVersion": "v1", "kind": "Secret",
                "metadata": {"name": "digitalocean", "namespace": "ns"},
                "type": "Opaque",
                "data": {"access-token": "dDBrZW4="},
            })
        );
        let other = creds(vec![secret("kube-system", "aws-creds", &[])]);
        let err = format!(
            "{:#}",
            post_install_secret("digitalocean", "digitalocean", &spec, &other, "ns")
                .expect_err("not held")
        );
        assert!(
            err.contains("reads the Secret kube-system/digitalocean"),
            "{err}"
        );
    }
}
