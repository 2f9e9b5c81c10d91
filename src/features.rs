//! OpenShift feature gates. (Interim: the Default set's gates the render reads; the full module
//! lands from the tls-features branch.)
use anyhow::Result;

/// Enabled and disabled gates.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FeatureGates {
    enabled: Vec<String>,
}

impl FeatureGates {
    /// From the FeatureGate object, or the Default set.
    pub fn from_manifest(_featuregate: Option<&serde_json::Value>) -> Result<Self> {
        Ok(Self {
            enabled: vec![
                "AWSServiceLBNetworkSecurityGroup".into(),
                "VSphereMixedNodeEnv".into(),
            ],
        })
    }
    /// Whether a gate is on.
    pub fn is_enabled(&self, name: &str) -> bool {
        self.enabled.iter().any(|g| g == name)
    }
    /// The `--feature-gates=` value for the upstream CCMs.
    pub fn upstream_ccm_flag_value(&self) -> String {
        String::new()
    }
    /// Enabled gates.
    pub fn enabled(&self) -> &[String] {
        &self.enabled
    }
}
