//! The parts of `install-config.yaml` (`openshift/installer:pkg/types`) that ccm-render reads, as
//! typed records, read through `super::go_json` (the installer's key matching). Unknown fields
//! are ignored, as the installer's own loader does for fields of other versions; `null` reads as
//! absent (YAML `compute:` with nothing after it). No struct here uses `#[serde(flatten)]`
//! (`go_json` cannot match a flattened struct's keys): the fields several platforms share
//! ([`Vips`], [`VSphereLegacy`]) are read from the same object a second time.
//!
//! One file per idea: the document without its platform (`document`), the public clouds whose
//! sections stand alone (`clouds`), Azure (`azure`), vSphere (`vsphere`), the VIP platforms and
//! External (`on_premise`), and how `null` reads (`nullable`).

mod azure;
mod clouds;
mod document;
mod nullable;
mod on_premise;
mod vsphere;

pub(crate) use azure::{Azure, AzureCloud, AzureSubnet, AzureSubnetRole};
#[cfg(test)]
pub(crate) use clouds::GcpPscEndpoint;
pub(crate) use clouds::{Aws, Gcp, IbmCloud, PowerVs, ServiceEndpoint};
pub(crate) use document::{ClusterNetworkEntry, Document, MachinePool, Networking, Proxy};
pub(crate) use on_premise::{External, Nutanix, OpenStack, Vips};
pub(crate) use vsphere::{VCenter, VSphere, VSphereFailureDomain, VSphereLegacy};
