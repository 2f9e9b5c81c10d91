//! `platform.azure` (`pkg/types/azure`): the platform, its subnets, the machine pools'
//! identities and the cloud names the installer accepts.

use super::document::{Document, MachinePool};
use super::nullable::nullable;
use serde::{Deserialize, Deserializer};
use serde_json::Value;
use std::collections::BTreeMap;

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct Azure {
    #[serde(default, deserialize_with = "nullable")]
    pub(crate) region: String,
    #[serde(default, deserialize_with = "nullable")]
    pub(crate) cloud_name: AzureCloud,
    #[serde(default, deserialize_with = "nullable")]
    pub(crate) arm_endpoint: String,
    #[serde(default, deserialize_with = "nullable")]
    pub(crate) resource_group_name: String,
    #[serde(default, deserialize_with = "nullable")]
    pub(crate) network_resource_group_name: String,
    #[serde(default, deserialize_with = "nullable")]
    pub(crate) virtual_network: String,
    /// Deprecated from 4.21 for `subnets`.
    #[serde(default, deserialize_with = "nullable")]
    pub(crate) control_plane_subnet: String,
    /// Deprecated from 4.21 for `subnets`.
    #[serde(default, deserialize_with = "nullable")]
    pub(crate) compute_subnet: String,
    /// `subnets` (installer 4.21+).
    #[serde(default, deserialize_with = "nullable")]
    pub(crate) subnets: Vec<AzureSubnet>,
    #[serde(default, deserialize_with = "nullable")]
    pub(crate) user_tags: BTreeMap<String, String>,
    /// `IPv4` (the default), `DualStackIPv4Primary` or `DualStackIPv6Primary`.
    #[serde(default, deserialize_with = "nullable")]
    pub(crate) ip_family: String,
    #[serde(default, deserialize_with = "nullable")]
    pub(crate) default_machine_platform: AzureMachinePool,
    /// Filled in by the parser: whether the installer creates a user-assigned identity for the
    /// VMs, which the cloud config's `useManagedIdentityExtension` follows from 4.19
    /// (`InstallConfig.CreateAzureIdentity`).
    #[serde(skip)]
    pub(crate) creates_identity: bool,
    /// Filled in by the parser: the first of the identities the cloud config reads that the
    /// install-config sets (`defaultMachinePlatform`, `compute[0]`, `controlPlane`), for the
    /// release check: the 4.18 installer's `pkg/types/azure` `MachinePool` has no `identity`.
    #[serde(skip)]
    pub(crate) identity_at: Option<&'static str>,
    /// `Enabled` or `Disabled` (installer 4.21+).
    #[serde(default, rename = "userProvisionedDNS", deserialize_with = "nullable")]
    pub(crate) user_provisioned_dns: String,
}

/// A subnet's role (CAPZ `SubnetRole`, as the installer's `SubnetSpec` takes it).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum AzureSubnetRole {
    /// `node`: compute nodes.
    Node,
    /// `control-plane`.
    ControlPlane,
}

impl AzureSubnetRole {
    const ALL: [Self; 2] = [Self::Node, Self::ControlPlane];

    fn as_str(self) -> &'static str {
        match self {
            Self::Node => "node",
            Self::ControlPlane => "control-plane",
        }
    }
}

impl<'de> Deserialize<'de> for AzureSubnetRole {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let name = String::deserialize(d)?;
        Self::ALL
            .into_iter()
            .find(|role| role.as_str() == name)
            .ok_or_else(|| {
                serde::de::Error::custom(format!(
                    "{name:?}: supported values: \"node\", \"control-plane\""
                ))
            })
    }
}

/// One of `platform.azure.subnets` (installer 4.21 `pkg/types/azure` `SubnetSpec`; what it
/// changes is in `super::azure_subnets`).
#[derive(Debug, Clone, Deserialize)]
pub(crate) struct AzureSubnet {
    #[serde(default)]
    pub(crate) name: String,
    pub(crate) role: AzureSubnetRole,
}

/// `platform.azure` of a machine pool (and `defaultMachinePlatform`): only the identity is read.
#[derive(Debug, Clone, Default, Deserialize)]
pub(crate) struct AzureMachinePool {
    #[serde(default)]
    pub(crate) identity: Option<AzureIdentity>,
}

/// A machine pool's `identity` (installer `pkg/types/azure` `VMIdentity`).
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct AzureIdentity {
    #[serde(default, deserialize_with = "nullable")]
    pub(crate) r#type: String,
    #[serde(default, deserialize_with = "nullable")]
    pub(crate) user_assigned_identities: Vec<Value>,
}

impl AzureIdentity {
    /// Whether this identity still needs one the installer creates: none given, or
    /// `UserAssigned` without identities.
    fn needs_one(identity: Option<&Self>) -> bool {
        identity
            .is_none_or(|id| id.r#type == "UserAssigned" && id.user_assigned_identities.is_empty())
    }
}

impl Azure {
    /// `InstallConfig.CreateAzureIdentity` (installer `pkg/types/utils.go`, 4.19): never on
    /// Azure Stack Hub; else when `defaultMachinePlatform` needs one and so does the first
    /// compute pool or the control plane (each pool's own `platform.azure.identity`).
    pub(crate) fn fill_identity(&mut self, d: &Document) -> anyhow::Result<()> {
        let own = |pool: Option<&MachinePool>, at: &str| -> anyhow::Result<Option<AzureIdentity>> {
            let platform = pool.map(|pool| super::super::decode::keys(&pool.platform));
            Ok(
                match platform.iter().flatten().find(|(key, _)| key == "azure") {
                    Some((_, v)) if !v.is_null() => {
                        super::super::decode::typed::<AzureMachinePool>(
                            v,
                            &format!("{at}.platform.azure"),
                        )?
                        .identity
                    }
                    _ => None,
                },
            )
        };
        let compute = own(d.compute.first(), "compute[0]")?;
        let control_plane = own(d.control_plane.as_ref(), "controlPlane")?;
        self.identity_at = [
            (
                self.default_machine_platform.identity.is_some(),
                "platform.azure.defaultMachinePlatform.identity",
            ),
            (compute.is_some(), "compute[0].platform.azure.identity"),
            (
                control_plane.is_some(),
                "controlPlane.platform.azure.identity",
            ),
        ]
        .into_iter()
        .find_map(|(set, at)| set.then_some(at));
        let default_needs =
            AzureIdentity::needs_one(self.default_machine_platform.identity.as_ref());
        let compute_needs = AzureIdentity::needs_one(compute.as_ref());
        let control_plane_needs = AzureIdentity::needs_one(control_plane.as_ref());
        self.creates_identity = self.cloud_name != AzureCloud::Stack
            && default_needs
            && (compute_needs || control_plane_needs);
        Ok(())
    }
}

/// An Azure cloud the installer accepts (`pkg/types/azure` `CloudEnvironment`); an empty or
/// absent `cloudName` is the public cloud (`pkg/types/azure/defaults`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) enum AzureCloud {
    /// `AzurePublicCloud`.
    #[default]
    Public,
    /// `AzureUSGovernmentCloud`.
    UsGovernment,
    /// `AzureChinaCloud`.
    China,
    /// `AzureGermanCloud`.
    German,
    /// `AzureStackCloud`: Azure Stack Hub, with its own ARM endpoint.
    Stack,
}

impl AzureCloud {
    const ALL: [Self; 5] = [
        Self::Public,
        Self::UsGovernment,
        Self::China,
        Self::German,
        Self::Stack,
    ];

    /// The name as the installer and the Infrastructure write it.
    pub(crate) fn as_str(self) -> &'static str {
        match self {
            Self::Public => "AzurePublicCloud",
            Self::UsGovernment => "AzureUSGovernmentCloud",
            Self::China => "AzureChinaCloud",
            Self::German => "AzureGermanCloud",
            Self::Stack => "AzureStackCloud",
        }
    }
}

impl<'de> Deserialize<'de> for AzureCloud {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let name = String::deserialize(d)?;
        if name.is_empty() {
            return Ok(Self::Public);
        }
        Self::ALL
            .into_iter()
            .find(|cloud| cloud.as_str() == name)
            .ok_or_else(|| {
                serde::de::Error::custom(format!(
                    "{name:?}: supported values: {}",
                    Self::ALL.map(Self::as_str).join(", ")
                ))
            })
    }
}
