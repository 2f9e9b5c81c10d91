//! The VIP platforms' shared fields (`apiVIPs`, `ingressVIPs`, `loadBalancer`,
//! `dnsRecordsType`), OpenStack, Nutanix, and `platform.external`.

use super::nullable::nullable;
use serde::Deserialize;

/// `loadBalancer: {type: OpenShiftManagedDefault|UserManaged}` of the VIP platforms.
#[derive(Debug, Clone, Default, Deserialize)]
pub(crate) struct LoadBalancer {
    #[serde(rename = "type", default, deserialize_with = "nullable")]
    pub(crate) kind: String,
}

/// `platform.openstack`: the VIPs, and what the cloud provider config reads.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct OpenStack {
    /// The name of the external network (the installer looks its ID up).
    #[serde(default, deserialize_with = "nullable")]
    pub(crate) external_network: String,
    /// Read from the same object by the parser.
    #[serde(skip)]
    pub(crate) vips: Vips,
}

/// The VIP fields OpenStack, BareMetal, vSphere and Nutanix share.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct Vips {
    #[serde(default, rename = "apiVIPs", deserialize_with = "nullable")]
    pub(crate) api_vips: Vec<String>,
    #[serde(default, rename = "ingressVIPs", deserialize_with = "nullable")]
    pub(crate) ingress_vips: Vec<String>,
    /// Deprecated single-VIP forms, which the installer converts to the lists.
    #[serde(default, rename = "apiVIP", deserialize_with = "nullable")]
    pub(crate) api_vip: String,
    #[serde(default, rename = "ingressVIP", deserialize_with = "nullable")]
    pub(crate) ingress_vip: String,
    #[serde(default)]
    pub(crate) load_balancer: Option<LoadBalancer>,
    /// `Internal` (the default from 4.21) or `External` (gated by `OnPremDNSRecords`); a field
    /// from 4.21 (`super::release_fields`).
    #[serde(default, rename = "dnsRecordsType", deserialize_with = "nullable")]
    pub(crate) dns_records_type: String,
}

/// `platform.external` (`pkg/types/external/platform.go`).
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct External {
    #[serde(default, deserialize_with = "nullable")]
    pub(crate) platform_name: String,
    #[serde(default, deserialize_with = "nullable")]
    pub(crate) cloud_controller_manager: String,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct Nutanix {
    #[serde(default, deserialize_with = "nullable")]
    pub(crate) prism_central: PrismCentral,
    #[serde(default, deserialize_with = "nullable")]
    pub(crate) prism_elements: Vec<PrismElement>,
    #[serde(default, deserialize_with = "nullable")]
    pub(crate) failure_domains: Vec<NutanixFailureDomain>,
    /// Read from the same object by the parser.
    #[serde(skip)]
    pub(crate) vips: Vips,
}

#[derive(Debug, Clone, Default, Deserialize)]
pub(crate) struct PrismCentral {
    #[serde(default, deserialize_with = "nullable")]
    pub(crate) endpoint: Endpoint,
}

#[derive(Debug, Clone, Default, Deserialize)]
pub(crate) struct Endpoint {
    #[serde(default, deserialize_with = "nullable")]
    pub(crate) address: String,
    #[serde(default, deserialize_with = "nullable")]
    pub(crate) port: i32,
}

#[derive(Debug, Clone, Default, Deserialize)]
pub(crate) struct PrismElement {
    #[serde(default, deserialize_with = "nullable")]
    pub(crate) name: String,
    #[serde(default, deserialize_with = "nullable")]
    pub(crate) uuid: String,
    #[serde(default, deserialize_with = "nullable")]
    pub(crate) endpoint: Endpoint,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct NutanixFailureDomain {
    #[serde(default, deserialize_with = "nullable")]
    pub(crate) name: String,
    #[serde(default, deserialize_with = "nullable")]
    pub(crate) prism_element: PrismElement,
    #[serde(default, rename = "subnetUUIDs", deserialize_with = "nullable")]
    pub(crate) subnet_uuids: Vec<String>,
}
