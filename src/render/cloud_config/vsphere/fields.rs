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

/// `[Global]` and `[VirtualCenter "…"]` variables; the `bool` marks those only `[Global]` has.
pub(super) const SERVER_INI: &[(&str, &str, IniKind, bool)] = &[
    ("user", "user", IniKind::Str, false),
    ("password", "password", IniKind::Str, false),
    ("server", "server", IniKind::Str, false),
    ("port", "port", IniKind::Port, false),
    ("insecure-flag", "insecureFlag", IniKind::Bool, false),
    ("datacenters", "datacenters", IniKind::List, false),
    (
        "soap-roundtrip-count",
        "soapRoundtripCount",
        IniKind::Uint,
        false,
    ),
    ("ca-file", "caFile", IniKind::Str, false),
    ("thumbprint", "thumbprint", IniKind::Str, false),
    ("secret-name", "secretName", IniKind::Str, false),
    ("secret-namespace", "secretNamespace", IniKind::Str, false),
    ("secrets-directory", "secretsDirectory", IniKind::Str, true),
    ("api-disable", "apiDisable", IniKind::Bool, true),
    ("api-binding", "apiBinding", IniKind::Str, true),
    ("ip-family", "ipFamily", IniKind::One, false),
];

pub(super) const LABELS_INI: &[(&str, &str, IniKind, bool)] = &[
    ("zone", "zone", IniKind::Str, false),
    ("region", "region", IniKind::Str, false),
];

pub(super) const NODES_INI: &[(&str, &str, IniKind, bool)] = &[
    (
        "internal-network-subnet-cidr",
        "internalNetworkSubnetCidr",
        IniKind::Str,
        false,
    ),
    (
        "external-network-subnet-cidr",
        "externalNetworkSubnetCidr",
        IniKind::Str,
        false,
    ),
    (
        "internal-vm-network-name",
        "internalVmNetworkName",
        IniKind::Str,
        false,
    ),
    (
        "external-vm-network-name",
        "externalVmNetworkName",
        IniKind::Str,
        false,
    ),
    (
        "exclude-internal-network-subnet-cidr",
        "excludeInternalNetworkSubnetCidr",
        IniKind::Str,
        false,
    ),
    (
        "exclude-external-network-subnet-cidr",
        "excludeExternalNetworkSubnetCidr",
        IniKind::Str,
        false,
    ),
];
