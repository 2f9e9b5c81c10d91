//! The cluster `Proxy` object (`config.openshift.io/v1`).

use super::{object_from_text, read_text};
use anyhow::{Context as _, Result};
use camino::Utf8Path;
use ccm_catalogue::json_fields::typed;
use serde::Deserialize;

/// The proxy settings a CCM container gets as environment variables.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ProxyEnv {
    /// `HTTP_PROXY`.
    pub(crate) http_proxy: String,
    /// `HTTPS_PROXY`.
    pub(crate) https_proxy: String,
    /// `NO_PROXY`.
    pub(crate) no_proxy: String,
}

impl ProxyEnv {
    /// The variables to append, in CCCMO's order, each only when set
    /// (CCCMO pkg/cloud/common/substitution.go).
    pub fn variables(&self) -> Vec<(&'static str, &str)> {
        [
            ("HTTP_PROXY", self.http_proxy.as_str()),
            ("HTTPS_PROXY", self.https_proxy.as_str()),
            ("NO_PROXY", self.no_proxy.as_str()),
        ]
        .into_iter()
        .filter(|(_, v)| !v.is_empty())
        .collect()
    }
}

/// What was read from the Proxy object.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Proxy {
    /// `status`: what the network operator computed, and what CCCMO passes to the CCMs.
    pub status: ProxyEnv,
    /// `spec`: what the user asked for.
    pub spec: ProxyEnv,
    /// `spec.trustedCA.name`.
    pub(crate) trusted_ca: String,
}

#[derive(Deserialize, Default)]
#[serde(rename_all = "camelCase")]
struct Fields {
    #[serde(default)]
    http_proxy: String,
    #[serde(default)]
    https_proxy: String,
    #[serde(default)]
    no_proxy: String,
    #[serde(default, rename = "trustedCA")]
    trusted_ca: Option<TrustedCa>,
}

#[derive(Deserialize, Default)]
struct TrustedCa {
    #[serde(default)]
    name: String,
}

#[derive(Deserialize)]
struct Doc {
    #[serde(default)]
    spec: Fields,
    #[serde(default)]
    status: Fields,
}

/// Reads the Proxy from a file.
pub(crate) fn load(path: &Utf8Path) -> Result<Proxy> {
    parse(&read_text(path)?, path)
}

/// [`load`] on text already read (`path` only names it in errors).
pub fn parse(text: &str, path: &Utf8Path) -> Result<Proxy> {
    let doc = object_from_text(
        text,
        path,
        "Proxy",
        "config.openshift.io",
        &["v1"],
        &["cluster"],
    )?;
    from_value(&doc, path)
}

/// Checks and extracts a Proxy already parsed (or derived from an install-config, `path`).
pub(crate) fn from_value(doc: &serde_json::Value, path: &Utf8Path) -> Result<Proxy> {
    let doc: Doc = typed(doc, path)?;
    let spec = check(doc.spec, "spec", path)?;
    let status = check(doc.status, "status", path)?;
    Ok(Proxy {
        status: status.0,
        spec: spec.0,
        trusted_ca: spec.1,
    })
}

fn check(fields: Fields, at: &str, path: &Utf8Path) -> Result<(ProxyEnv, String)> {
    use ccm_catalogue::validate::{no_proxy, proxy_url};
    let named = |field: &str| format!("{path}: {at}.{field}");
    if !fields.http_proxy.is_empty() {
        proxy_url(&fields.http_proxy).with_context(|| named("httpProxy"))?;
    }
    if !fields.https_proxy.is_empty() {
        proxy_url(&fields.https_proxy).with_context(|| named("httpsProxy"))?;
    }
    no_proxy(&fields.no_proxy).with_context(|| named("noProxy"))?;
    Ok((
        ProxyEnv {
            http_proxy: fields.http_proxy,
            https_proxy: fields.https_proxy,
            no_proxy: fields.no_proxy,
        },
        fields.trusted_ca.map(|t| t.name).unwrap_or_default(),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn load_text(text: &str) -> Result<Proxy> {
        let dir = tempfile::tempdir().expect("tempdir");
        let file = dir.path().join("proxy.yaml");
        std::fs::write(&file, text).expect("write");
        load(Utf8Path::from_path(&file).expect("utf8"))
    }

    #[test]
    fn status_and_spec_are_read() {
        let p = load_text("apiVersion: config.openshift.io/v1\nkind: Proxy\nspec:\n  httpProxy: http://p:3128\n  trustedCA:\n    name: user-ca-bundle\nstatus:\n  httpProxy: http://p:3128\n  noProxy: .svc,10.0.0.0/16\n").expect("ok");
        assert_eq!(p.status.http_proxy, "http://p:3128");
        assert_eq!(p.status.no_proxy, ".svc,10.0.0.0/16");
        assert_eq!(p.trusted_ca, "user-ca-bundle");
        assert_eq!(
            p.status.variables(),
            vec![
                ("HTTP_PROXY", "http://p:3128"),
                ("NO_PROXY", ".svc,10.0.0.0/16")
            ]
        );
    }

    #[test]
    fn bad_proxy_url_names_the_field() {
        let err = load_text("apiVersion: config.openshift.io/v1\nkind: Proxy\nstatus:\n  httpsProxy: \"proxy:3128\"\n").expect_err("bad");
        assert!(
            format!("{err:#}").contains(": status.httpsProxy: "),
            "{err}"
        );
    }

    #[test]
    fn wrong_kind_is_refused() {
        let err = load_text("apiVersion: v1\nkind: ConfigMap\n").expect_err("kind");
        assert!(format!("{err:#}").contains("no Proxy object"), "{err}");
    }
}
