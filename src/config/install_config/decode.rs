//! Decoding the install-config's parts into typed records as the installer decodes them (see
//! [`super::go_json`]), and its platform keys.

use super::go_json;
use anyhow::{Result, anyhow};
use serde_json::{Map, Value};

/// The platform keys the installer accepts (`types.PlatformNames`, newest validation message).
pub(crate) const PLATFORMS: &[&str] = &[
    "aws",
    "azure",
    "baremetal",
    "external",
    "gcp",
    "ibmcloud",
    "none",
    "nutanix",
    "openstack",
    "powervs",
    "vsphere",
];

/// A `platform` object's entries keyed as the installer's decoder reads them into
/// `types.Platform` (or a machine pool's `MachinePoolPlatform`, which has the same JSON names):
/// `vSphere` is `vsphere`, and `aws` given twice in two cases is one platform (see `go_json`).
/// Keys that name no platform keep their own spelling.
pub(super) fn keys(map: &Map<String, Value>) -> Vec<(String, Value)> {
    go_json::group(map, PLATFORMS)
        .into_iter()
        .map(|(key, value)| (key, value.into_owned()))
        .collect()
}

/// Reads the install-config's fields into typed records, keys matched to fields as the
/// installer's decoder matches them (`go_json`), naming the field of a wrong type.
pub(super) fn typed<T: serde::de::DeserializeOwned>(value: &Value, at: &str) -> Result<T> {
    go_json::deserialize(value).map_err(|err| {
        let field = err.path();
        let inner = err.message();
        match (at.is_empty(), field == ".") {
            (true, true) => anyhow!("{inner}"),
            (true, false) => anyhow!("{field}: {inner}"),
            (false, true) => anyhow!("{at}: {inner}"),
            (false, false) => anyhow!("{at}.{field}: {inner}"),
        }
    })
}
