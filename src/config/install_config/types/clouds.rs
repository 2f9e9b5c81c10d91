//! The public clouds' platform sections whose records stand alone: AWS, GCP, IBM Cloud and
//! PowerVS (`pkg/types/{aws,gcp,ibmcloud,powervs}`), and the `{name, url}` endpoint overrides
//! they share.

use super::document::{Document, MachinePool};
use super::nullable::nullable;
use serde::Deserialize;
use std::collections::BTreeMap;

/// `{name, url}` service endpoint overrides (AWS, IBM Cloud, PowerVS).
#[derive(Debug, Clone, Default, Deserialize, serde::Serialize, PartialEq, Eq)]
pub(crate) struct ServiceEndpoint {
    #[serde(default, deserialize_with = "nullable")]
    pub(crate) name: String,
    #[serde(default, deserialize_with = "nullable")]
    pub(crate) url: String,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct Aws {
    #[serde(default, deserialize_with = "nullable")]
    pub(crate) region: String,
    #[serde(default, deserialize_with = "nullable")]
    pub(crate) service_endpoints: Vec<ServiceEndpoint>,
    #[serde(default, deserialize_with = "nullable")]
    pub(crate) user_tags: BTreeMap<String, String>,
    #[serde(default, deserialize_with = "nullable")]
    pub(crate) propagate_user_tags: bool,
    #[serde(default, rename = "userProvisionedDNS", deserialize_with = "nullable")]
    pub(crate) user_provisioned_dns: String,
    /// `IPv4` (the default), `DualStackIPv4Primary` or `DualStackIPv6Primary`.
    #[serde(default, deserialize_with = "nullable")]
    pub(crate) ip_family: String,
    /// `Classic` or `NLB`; defaults to `NLB` for dual stack (`super::platform`).
    #[serde(default, rename = "lbType", deserialize_with = "nullable")]
    pub(crate) lb_type: String,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct Gcp {
    #[serde(default, rename = "projectID", deserialize_with = "nullable")]
    pub(crate) project_id: String,
    #[serde(default, deserialize_with = "nullable")]
    pub(crate) region: String,
    #[serde(default, deserialize_with = "nullable")]
    pub(crate) compute_subnet: String,
    #[serde(default, rename = "networkProjectID", deserialize_with = "nullable")]
    pub(crate) network_project_id: String,
    #[serde(default, deserialize_with = "nullable")]
    pub(crate) user_labels: Vec<GcpLabel>,
    #[serde(default, deserialize_with = "nullable")]
    pub(crate) user_tags: Vec<GcpTag>,
    #[serde(default, rename = "userProvisionedDNS", deserialize_with = "nullable")]
    pub(crate) user_provisioned_dns: String,
    /// `endpoint`: the Private Service Connect endpoint (installer 4.21+).
    #[serde(default)]
    pub(crate) endpoint: Option<GcpPscEndpoint>,
    /// `firewallRulesManagement`: `Managed` or `Unmanaged` (installer 4.21+).
    #[serde(default, deserialize_with = "nullable")]
    pub(crate) firewall_rules_management: String,
    /// Service endpoint overrides (installer 4.19 and 4.20: copied into the Infrastructure).
    #[serde(default, deserialize_with = "nullable")]
    pub(crate) service_endpoints: Vec<ServiceEndpoint>,
}

/// `platform.gcp.endpoint` (installer `pkg/types/gcp/platform.go` `PSCEndpoint`). Its
/// `clusterUseOnly` says whether the installer itself uses the endpoint; the cluster's
/// components use it either way, so nothing derived here reads it.
#[derive(Debug, Clone, Default, Deserialize)]
pub(crate) struct GcpPscEndpoint {
    #[serde(default, deserialize_with = "nullable")]
    pub(crate) name: String,
}

#[derive(Debug, Clone, Default, Deserialize)]
pub(crate) struct GcpLabel {
    #[serde(default, deserialize_with = "nullable")]
    pub(crate) key: String,
    #[serde(default, deserialize_with = "nullable")]
    pub(crate) value: String,
}

#[derive(Debug, Clone, Default, Deserialize)]
pub(crate) struct GcpTag {
    #[serde(default, rename = "parentID", deserialize_with = "nullable")]
    pub(crate) parent_id: String,
    #[serde(default, deserialize_with = "nullable")]
    pub(crate) key: String,
    #[serde(default, deserialize_with = "nullable")]
    pub(crate) value: String,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct IbmCloud {
    #[serde(default, deserialize_with = "nullable")]
    pub(crate) region: String,
    #[serde(default, deserialize_with = "nullable")]
    pub(crate) resource_group_name: String,
    #[serde(default, deserialize_with = "nullable")]
    pub(crate) service_endpoints: Vec<ServiceEndpoint>,
    #[serde(default, deserialize_with = "nullable")]
    pub(crate) vpc_name: String,
    #[serde(default, deserialize_with = "nullable")]
    pub(crate) control_plane_subnets: Vec<String>,
    #[serde(default, deserialize_with = "nullable")]
    pub(crate) compute_subnets: Vec<String>,
    #[serde(default, deserialize_with = "nullable")]
    pub(crate) default_machine_platform: IbmCloudMachinePool,
    /// Filled in by the parser: the zones of the control plane and of the `worker` pool
    /// (`defaultMachinePlatform` overridden by the pool's own `platform.ibmcloud`); empty
    /// where the install-config names none.
    #[serde(skip)]
    pub(crate) control_plane_zones: Vec<String>,
    #[serde(skip)]
    pub(crate) compute_zones: Vec<String>,
}

impl IbmCloud {
    /// The zones of the control plane and `worker` pools: the pool's own
    /// `platform.ibmcloud.zones`, else `platform.ibmcloud.defaultMachinePlatform.zones`
    /// (installer `pkg/asset/manifests/cloudproviderconfig.go`: `MachinePool.Set` of the
    /// default, then of the pool; `WorkerMachinePool` is the pool named `worker`).
    pub(crate) fn fill_zones(&mut self, d: &Document) -> anyhow::Result<()> {
        let default = self.default_machine_platform.zones.clone();
        let zones = |pool: Option<&MachinePool>, at: &str| -> anyhow::Result<Vec<String>> {
            let platform = pool.map(|pool| super::super::decode::keys(&pool.platform));
            let own = match platform.iter().flatten().find(|(key, _)| key == "ibmcloud") {
                Some((_, v)) if !v.is_null() => {
                    super::super::decode::typed::<IbmCloudMachinePool>(
                        v,
                        &format!("{at}.platform.ibmcloud"),
                    )?
                    .zones
                }
                _ => Vec::new(),
            };
            Ok(if own.is_empty() { default.clone() } else { own })
        };
        self.control_plane_zones = zones(d.control_plane.as_ref(), "controlPlane")?;
        let worker = d.compute.iter().position(|pool| pool.name == "worker");
        self.compute_zones = zones(
            worker.map(|i| &d.compute[i]),
            &format!("compute[{}]", worker.unwrap_or(0)),
        )?;
        Ok(())
    }
}

/// `platform.ibmcloud` of a machine pool: only the zones are read.
#[derive(Debug, Clone, Default, Deserialize)]
pub(crate) struct IbmCloudMachinePool {
    #[serde(default, deserialize_with = "nullable")]
    pub(crate) zones: Vec<String>,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct PowerVs {
    #[serde(default, deserialize_with = "nullable")]
    pub(crate) region: String,
    #[serde(default, deserialize_with = "nullable")]
    pub(crate) zone: String,
    #[serde(default, deserialize_with = "nullable")]
    pub(crate) powervs_resource_group: String,
    #[serde(default, deserialize_with = "nullable")]
    pub(crate) service_endpoints: Vec<ServiceEndpoint>,
    #[serde(default, rename = "vpcRegion", deserialize_with = "nullable")]
    pub(crate) vpc_region: String,
    #[serde(default, rename = "vpcName", deserialize_with = "nullable")]
    pub(crate) vpc_name: String,
    #[serde(default, rename = "vpcSubnets", deserialize_with = "nullable")]
    pub(crate) vpc_subnets: Vec<String>,
    #[serde(default, rename = "serviceInstanceGUID", deserialize_with = "nullable")]
    pub(crate) service_instance_guid: String,
}
