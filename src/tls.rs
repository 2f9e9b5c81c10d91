//! TLS flags from the APIServer profile. (Interim: Intermediate only; the full module lands from
//! the tls-features branch.)
use anyhow::Result;

/// The TLS settings passed to the CCMs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TlsSettings {
    /// e.g. `VersionTLS12`.
    pub min_version: String,
    /// IANA names; empty for TLS 1.3.
    pub cipher_suites: Vec<String>,
}

impl TlsSettings {
    /// The flags, in CCCMO's order.
    pub fn flags(&self) -> Vec<String> {
        let mut flags = Vec::new();
        if !self.cipher_suites.is_empty() {
            flags.push(format!(
                "--tls-cipher-suites={}",
                self.cipher_suites.join(",")
            ));
        }
        if !self.min_version.is_empty() {
            flags.push(format!("--tls-min-version={}", self.min_version));
        }
        flags
    }
}

/// From the APIServer object, or the Intermediate profile.
pub fn from_apiserver(_apiserver: Option<&serde_json::Value>) -> Result<TlsSettings> {
    Ok(TlsSettings {
        min_version: "VersionTLS12".into(),
        cipher_suites: "TLS_AES_128_GCM_SHA256,TLS_AES_256_GCM_SHA384,TLS_CHACHA20_POLY1305_SHA256,TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256,TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256,TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384,TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384,TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256,TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256".split(',').map(String::from).collect(),
    })
}
