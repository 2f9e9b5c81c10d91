//! The edits of JSON objects the hosted adapters share: appending to a list that may be
//! missing, finding the CCM's container, filling a ConfigMap key from its template; and the
//! error of an adapter that is not the platform's.

use anyhow::{Result, anyhow};
use ccm_catalogue::hosted::ManifestAdapter;
use ccm_catalogue::platform::HostedPlatform;
use serde_json::{Value, json};

/// Appends `item` to the list `list`, which becomes one when it is not (Go's `append` to a
/// nil slice).
pub(super) fn push(list: &mut Value, item: Value) {
    match list {
        Value::Array(items) => items.push(item),
        other => *other = json!([item]),
    }
}

/// The container `name` of the Deployment.
pub(super) fn container<'a>(deployment: &'a mut Value, name: &str) -> Result<&'a mut Value> {
    deployment["spec"]["template"]["spec"]["containers"]
        .as_array_mut()
        .and_then(|list| list.iter_mut().find(|c| c["name"] == name))
        .ok_or_else(|| anyhow!("the Deployment has no container {name}"))
}

/// Replaces `data.<key>` (the template) with what `build` makes of it.
pub(super) fn fill(
    object: &mut Value,
    key: &str,
    build: impl FnOnce(&str) -> Result<String>,
) -> Result<()> {
    let template = object["data"][key].as_str().unwrap_or_default().to_string();
    object["data"][key] = json!(build(&template)?);
    Ok(())
}

/// The error of `adapt` named by a component of `platform`: decoding the catalogue refuses an
/// adapter of another platform (`ccm_catalogue::hosted`), so only a catalogue that skipped
/// that check gets here.
pub(super) fn not_an_adapter_of(adapt: ManifestAdapter, platform: HostedPlatform) -> anyhow::Error {
    anyhow!(
        "the hosted component of {platform} names {adapt:?}, an adapter of {}",
        adapt.platform()
    )
}
