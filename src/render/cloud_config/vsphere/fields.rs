//! The vSphere config's fields: the YAML config's records, in the order
//! `sigs.k8s.io/yaml` writes them (openshift/library-go `pkg/cloudprovider/vsphere/yaml.go`),
//! and where each key of the legacy INI config goes (`ini.go`).

use super::super::schema::{Field, Kind, Omit, field};

pub(super) const GLOBAL: &[Field] = &[
    field("user", Kind::Str),
    field("password", Kind::Str),
    field("server", Kind::Str),
    field("port", Kind::Uint),
    field("insecureFlag", Kind::Bool),
    field("datacenters", Kind::StrList),
    field("soapRoundtripCount", Kind::Uint),
    field("caFile", Kind::Str),
    field("thumbprint", Kind::Str),
    field("secretName", Kind::Str),
    field("secretNamespace", Kind::Str),
    field("secretsDirectory", Kind::Str),
    field("apiDisable", Kind::Bool),
    field("apiBinding", Kind::Str),
    field("ipFamily", Kind::StrList),
];

pub(super) const VCENTER: &[Field] = &[
    field("user", Kind::Str),
    field("password", Kind::Str),
    field("server", Kind::Str),
    field("port", Kind::Uint),
    field("insecureFlag", Kind::Bool),
    field("datacenters", Kind::StrList),
    field("soapRoundtripCount", Kind::Uint),
    field("caFile", Kind::Str),
    field("thumbprint", Kind::Str),
    field("secretName", Kind::Str),
    field("secretNamespace", Kind::Str),
    field("ipFamily", Kind::StrList),
];

pub(super) const LABELS: &[Field] = &[field("zone", Kind::Str), field("region", Kind::Str)];

pub(super) const NODES: &[Field] = &[
    field("internalNetworkSubnetCidr", Kind::Str),
    field("externalNetworkSubnetCidr", Kind::Str),
    field("internalVmNetworkName", Kind::Str),
    field("externalVmNetworkName", Kind::Str),
    field("excludeInternalNetworkSubnetCidr", Kind::Str),
    field("excludeExternalNetworkSubnetCidr", Kind::Str),
];

/// `CPIConfig`: `global` is always written; empty `labels` and `nodes` are left out.
pub(super) const CONFIG: &[Field] = &[
    field("global", Kind::Struct(GLOBAL)),
    field("vcenter", Kind::StructMap(VCENTER)),
    Field {
        name: "labels",
        kind: Kind::Struct(LABELS),
        omit: Omit::Zero,
    },
    Field {
        name: "nodes",
        kind: Kind::Struct(NODES),
        omit: Omit::Zero,
    },
];

/// The vCenter settings a rebuilt `vcenter` entry keeps from the source: credentials and TLS.
/// Where the vCenter is and what it serves come from the Infrastructure; the IP family from
/// `global` (CCCMO keeps none of them: docs/differences-from-cccmo.md).
pub(super) const VCENTER_KEPT: &[&str] = &[
    "user",
    "password",
    "insecureFlag",
    "soapRoundtripCount",
    "caFile",
    "thumbprint",
    "secretName",
    "secretNamespace",
];

/// How library-go reads an INI variable (`ini.go`), and the YAML field it becomes.
#[derive(Clone, Copy)]
pub(super) enum IniKind {
    Str,
    /// gcfg bool.
    Bool,
    /// gcfg uint: decimal or `0x` hexadecimal.
    Uint,
    /// A string parsed with `strconv.Atoi`; empty is 0.
    Port,
    /// Comma-separated, trimmed.
    List,
    /// One value that becomes a one-item list.
    One,
}

/// An INI variable library-go reads: its INI name, the YAML field it becomes, how it is read,
/// and whether only `[Global]` has it.
#[derive(Clone, Copy)]
pub(super) struct IniKey {
    pub(crate) ini: &'static str,
    pub(crate) yaml: &'static str,
    pub(crate) kind: IniKind,
    pub(crate) global_only: bool,
}

/// A variable of `[Global]` and of `[VirtualCenter "…"]` (or of the section its table is for).
const fn ini_key(ini: &'static str, yaml: &'static str, kind: IniKind) -> IniKey {
    IniKey {
        ini,
        yaml,
        kind,
        global_only: false,
    }
}

/// A variable only `[Global]` has.
const fn global_only(ini: &'static str, yaml: &'static str, kind: IniKind) -> IniKey {
    IniKey {
        global_only: true,
        ..ini_key(ini, yaml, kind)
    }
}

/// `[Global]` and `[VirtualCenter "…"]` variables.
pub(super) const SERVER_INI: &[IniKey] = &[
    ini_key("user", "user", IniKind::Str),
    ini_key("password", "password", IniKind::Str),
    ini_key("server", "server", IniKind::Str),
    ini_key("port", "port", IniKind::Port),
    ini_key("insecure-flag", "insecureFlag", IniKind::Bool),
    ini_key("datacenters", "datacenters", IniKind::List),
    ini_key("soap-roundtrip-count", "soapRoundtripCount", IniKind::Uint),
    ini_key("ca-file", "caFile", IniKind::Str),
    ini_key("thumbprint", "thumbprint", IniKind::Str),
    ini_key("secret-name", "secretName", IniKind::Str),
    ini_key("secret-namespace", "secretNamespace", IniKind::Str),
    global_only("secrets-directory", "secretsDirectory", IniKind::Str),
    global_only("api-disable", "apiDisable", IniKind::Bool),
    global_only("api-binding", "apiBinding", IniKind::Str),
    ini_key("ip-family", "ipFamily", IniKind::One),
];

/// `[Labels]` variables.
pub(super) const LABELS_INI: &[IniKey] = &[
    ini_key("zone", "zone", IniKind::Str),
    ini_key("region", "region", IniKind::Str),
];

/// `[Nodes]` variables.
pub(super) const NODES_INI: &[IniKey] = &[
    ini_key(
        "internal-network-subnet-cidr",
        "internalNetworkSubnetCidr",
        IniKind::Str,
    ),
    ini_key(
        "external-network-subnet-cidr",
        "externalNetworkSubnetCidr",
        IniKind::Str,
    ),
    ini_key(
        "internal-vm-network-name",
        "internalVmNetworkName",
        IniKind::Str,
    ),
    ini_key(
        "external-vm-network-name",
        "externalVmNetworkName",
        IniKind::Str,
    ),
    ini_key(
        "exclude-internal-network-subnet-cidr",
        "excludeInternalNetworkSubnetCidr",
        IniKind::Str,
    ),
    ini_key(
        "exclude-external-network-subnet-cidr",
        "excludeExternalNetworkSubnetCidr",
        IniKind::Str,
    ),
];
