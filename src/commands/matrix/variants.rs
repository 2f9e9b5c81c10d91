//! The matrix's variants: the axes a case varies along ([`AXES`]), the value of each that a
//! case takes, and the folder name of a combination.

use super::samples;

/// One dimension of the matrix.
#[derive(Debug)]
pub(crate) struct Axis {
    /// Its values, the first being the default.
    pub(crate) values: &'static [AxisValue],
}

/// One value of an axis.
#[derive(Debug)]
pub(crate) struct AxisValue {
    /// Its part of the variant name.
    pub(crate) name: &'static str,
    /// What it changes in a case's inputs.
    pub(crate) setting: Setting,
}

/// What an axis value changes in the inputs of a case.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Setting {
    /// `--infrastructure` is this sample file.
    Infrastructure(&'static str),
    /// `--proxy` is the sample Proxy, or not given.
    Proxy(bool),
    /// `--apiserver` is the sample with the Modern TLS profile, or not given (Intermediate).
    ModernTls(bool),
    /// `--feature-gate` is the sample with TechPreviewNoUpgrade, or not given (Default).
    TechPreview(bool),
}

/// The axes: control-plane topology, cluster-wide proxy, TLS profile, feature set.
pub(crate) const AXES: &[Axis] = &[
    // controlPlaneTopology
    Axis {
        values: &[
            AxisValue {
                name: "ha",
                setting: Setting::Infrastructure(samples::INFRASTRUCTURE),
            },
            AxisValue {
                name: "sno",
                setting: Setting::Infrastructure(samples::INFRASTRUCTURE_SNO),
            },
        ],
    },
    // proxy
    Axis {
        values: &[
            AxisValue {
                name: "noproxy",
                setting: Setting::Proxy(false),
            },
            AxisValue {
                name: "proxy",
                setting: Setting::Proxy(true),
            },
        ],
    },
    // tlsSecurityProfile
    Axis {
        values: &[
            AxisValue {
                name: "intermediate",
                setting: Setting::ModernTls(false),
            },
            AxisValue {
                name: "modern",
                setting: Setting::ModernTls(true),
            },
        ],
    },
    // featureSet
    Axis {
        values: &[
            AxisValue {
                name: "default",
                setting: Setting::TechPreview(false),
            },
            AxisValue {
                name: "techpreview",
                setting: Setting::TechPreview(true),
            },
        ],
    },
];

/// Every combination of one value per axis, in a stable order (the first axis varies slowest).
pub(crate) fn variants() -> Vec<Vec<&'static AxisValue>> {
    let mut out: Vec<Vec<&'static AxisValue>> = vec![Vec::new()];
    for axis in AXES {
        out = out
            .into_iter()
            .flat_map(|prefix| {
                axis.values.iter().map(move |value| {
                    let mut next = prefix.clone();
                    next.push(value);
                    next
                })
            })
            .collect();
    }
    out
}

/// The folder name of a variant.
pub(crate) fn variant_name(values: &[&AxisValue]) -> String {
    values.iter().map(|v| v.name).collect::<Vec<_>>().join("-")
}
