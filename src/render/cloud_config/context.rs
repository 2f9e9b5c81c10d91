//! What every transform reads and returns, and the checks they share: the [`Context`] a
//! transform may read, the [`Transformed`] result, and the platform check.

use anyhow::{Context as _, Result, bail};
use ccm_catalogue::platform::Platform;
use ccm_catalogue::providers::Transform;
use ccm_catalogue::releases::behaviour::CloudConfig as Behaviour;
use serde::Deserialize;

/// What a transform may read besides the source text.
pub struct Context<'a> {
    /// The Infrastructure's `status.platformStatus.type`, as the inputs layer read it.
    pub platform: Platform,
    /// The whole parsed Infrastructure object (config.openshift.io/v1), as JSON.
    pub infrastructure: &'a serde_json::Value,
    /// The parsed Network object (config.openshift.io/v1), when given (vSphere IP families).
    pub network: Option<&'a serde_json::Value>,
    /// Whether an `OpenShift` feature gate is enabled (e.g. `AWSServiceLBNetworkSecurityGroup`).
    pub feature_enabled: &'a dyn Fn(&str) -> bool,
    /// How the release being rendered transforms.
    pub behaviour: &'a Behaviour,
}

/// A transformed cloud config.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Transformed {
    /// The cloud.conf text to write.
    pub(crate) text: String,
    /// Human-readable warnings (e.g. "dropped unknown key [Global] Foo"), never containing secret values.
    pub(crate) warnings: Vec<String>,
}

/// Reads the part of an Infrastructure or Network object that `T` describes (unknown fields are
/// ignored, `null` reads as absent).
pub(super) fn read_object<'a, T: Deserialize<'a>>(
    value: &'a serde_json::Value,
    what: &str,
) -> Result<T> {
    T::deserialize(value).with_context(|| format!("reading the {what}"))
}

/// Fails unless the Infrastructure's platform (CCCMO reads `status.platformStatus.type`) is
/// `expected`.
pub(super) fn require_platform(
    ctx: &Context<'_>,
    expected: Platform,
    transform: Transform,
) -> Result<()> {
    if ctx.platform != expected {
        bail!(
            "the {} cloud config transform needs an Infrastructure of platform {expected}, but status.platformStatus.type is {:?}",
            transform.name(),
            ctx.platform.as_str()
        );
    }
    Ok(())
}
