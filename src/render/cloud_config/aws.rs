//! The AWS transform (CCCMO `pkg/cloud/aws/aws_config_transformer.go`): reads `cloud.conf` as the AWS cloud provider does (gcfg into
//! its `CloudConfig` struct, kubernetes/cloud-provider-aws `pkg/providers/v1/config/config.go`),
//! applies `OpenShift`'s defaults and writes it back in CCCMO's layout, quoted so that the AWS
//! cloud provider can still read it.

use anyhow::Result;

use super::context::{Context, Transformed};
use super::gcfg;
use super::ini::{Ini, Section, parse};
use super::ini_keys::{BOOL, WHOLE_NUMBER, find, no_value, read};
use ccm_catalogue::releases::behaviour::NodeIpFamilies;

/// How gcfg reads a `[Global]` variable into its Go field.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    Str,
    /// `bool`; always written, like go-ini writes `false`.
    Bool,
    /// `int32`; always written, like go-ini writes `0`.
    Int,
    /// `[]string`: one line per value.
    Multi,
}

/// A `[Global]` variable: its gcfg name and how gcfg reads it.
#[derive(Clone, Copy)]
struct GlobalKey {
    name: &'static str,
    kind: Kind,
}

const fn key(name: &'static str, kind: Kind) -> GlobalKey {
    GlobalKey { name, kind }
}

/// `CloudConfig.Global` in struct order, which is the order CCCMO writes (go-ini `ReflectFrom`).
const GLOBAL: &[GlobalKey] = &[
    key("Zone", Kind::Str),
    key("Region", Kind::Str),
    key("VPC", Kind::Str),
    key("SubnetID", Kind::Str),
    key("RouteTableID", Kind::Str),
    key("RoleARN", Kind::Str),
    key("SourceARN", Kind::Str),
    key("KubernetesClusterTag", Kind::Str),
    key("KubernetesClusterID", Kind::Str),
    key("DisableSecurityGroupIngress", Kind::Bool),
    key("ElbSecurityGroup", Kind::Str),
    key("NodeIPFamilies", Kind::Multi),
    key("ClusterServiceLoadBalancerHealthProbeMode", Kind::Str),
    key("ClusterServiceSharedLoadBalancerHealthProbePort", Kind::Int),
    key("ClusterServiceSharedLoadBalancerHealthProbePath", Kind::Str),
    key("SupportedTopologyInstanceTypePattern", Kind::Str),
    key("NLBSecurityGroupMode", Kind::Str),
];

/// `CloudConfig.ServiceOverride[*]` in struct order.
const SERVICE_OVERRIDE: &[&str] = &[
    "Service",
    "Region",
    "URL",
    "SigningRegion",
    "SigningMethod",
    "SigningName",
];

const PROBE_MODE: &str = "ClusterServiceLoadBalancerHealthProbeMode";
const NLB_MODE: &str = "NLBSecurityGroupMode";
const NLB_GATE: &str = "AWSServiceLBNetworkSecurityGroup";

/// The AWS transform. The Infrastructure and Network are not consulted (CCCMO does not either).
pub(crate) fn transform(source: &str, ctx: &Context<'_>) -> Result<Transformed> {
    let (ini, mut warnings) = parse(source)?;
    let mut global = read_global(&ini, &mut warnings)?;

    // CCCMO pkg/cloud/aws/aws_config_transformer.go setOpenShiftDefaults: OpenShift points the
    // Cluster-scope services' health checks at kube-proxy's shared endpoint.
    if let Some(mode @ None) = global.str_mut(PROBE_MODE) {
        *mode = Some("Shared".to_owned());
    }
    // …and with this gate on, lets the CCM manage NLB security groups (CCCMO 4.21 and later).
    if ctx.behaviour.aws_nlb_security_group_mode
        && (ctx.feature_enabled)(NLB_GATE)
        && let Some(mode) = global.str_mut(NLB_MODE)
    {
        if let Some(old) = mode.as_deref().filter(|old| *old != "Managed") {
            warnings.push(format!(
                "[Global] {NLB_MODE} {old:?} replaced by \"Managed\": feature gate {NLB_GATE} is enabled"
            ));
        }
        *mode = Some("Managed".to_owned());
    }

    let mut out = Ini::default();
    let section = out.ensure_section("Global", None);
    // CCCMO drops keys whose value is "" (bools and ints always have one).
    for (key, value) in GLOBAL.iter().zip(&global.values) {
        let values: Vec<String> = value
            .written()
            .into_iter()
            .filter(|v| !v.is_empty())
            .collect();
        // CCCMO 4.19-4.21 let go-ini write the Go slice, comma-joined on one line; 4.22 writes
        // one shadow key per family, the form the AWS cloud provider reads back as a list.
        if key.kind == Kind::Multi
            && ctx.behaviour.aws_node_ip_families == NodeIpFamilies::Joined
            && !values.is_empty()
        {
            section.push(key.name, &values.join(","));
            continue;
        }
        for value in &values {
            section.push(key.name, value);
        }
    }
    let mut overrides = read_overrides(&ini, &mut warnings)?;
    // CCCMO sorts section names as strings ("10" before "2") though its comment says numerically;
    // the CCM does not care, people reading the file do.
    overrides.sort_by_key(|s| {
        let sub = s.sub.clone().unwrap_or_default();
        (sub.parse::<u64>().map_or(u64::MAX, |n| n), sub)
    });
    out.sections.extend(overrides);
    Ok(Transformed {
        text: out.to_text(),
        warnings,
    })
}

/// A `[Global]` value as gcfg sets its Go field.
#[derive(Debug, Clone, PartialEq, Eq)]
enum GlobalValue {
    /// `string`; None while no line sets it (a line may set it to "").
    Str(Option<String>),
    /// `bool`.
    Bool(bool),
    /// `int32`.
    Int(i32),
    /// `[]string`.
    Multi(Vec<String>),
}

impl GlobalValue {
    /// The Go zero value of a field of `kind`.
    fn zero(kind: Kind) -> Self {
        match kind {
            Kind::Str => Self::Str(None),
            Kind::Bool => Self::Bool(false),
            Kind::Int => Self::Int(0),
            Kind::Multi => Self::Multi(Vec::new()),
        }
    }

    /// The values go-ini writes for the field, one per line.
    fn written(&self) -> Vec<String> {
        match self {
            Self::Str(value) => value.iter().cloned().collect(),
            Self::Bool(value) => vec![value.to_string()],
            Self::Int(value) => vec![value.to_string()],
            Self::Multi(values) => values.clone(),
        }
    }
}

/// `CloudConfig.Global` as gcfg reads it: one value per [`GLOBAL`] key, in its order.
struct Global {
    values: Vec<GlobalValue>,
}

impl Global {
    /// The string field `name` of [`GLOBAL`] (None if it names none or a field of another kind).
    fn str_mut(&mut self, name: &str) -> Option<&mut Option<String>> {
        let at = GLOBAL.iter().position(|k| k.name == name)?;
        match &mut self.values[at] {
            GlobalValue::Str(value) => Some(value),
            _ => None,
        }
    }
}

/// The `[Global]` values as gcfg would set them: Go's zero value for a field no line sets.
fn read_global(ini: &Ini, warnings: &mut Vec<String>) -> Result<Global> {
    let mut values: Vec<GlobalValue> = GLOBAL.iter().map(|k| GlobalValue::zero(k.kind)).collect();
    for section in &ini.sections {
        if section.is("Global", None) {
            for entry in &section.entries {
                let Some(at) = find(section, &entry.key, GLOBAL, |k| Some(k.name), warnings) else {
                    continue;
                };
                let name = GLOBAL[at].name;
                match (&mut values[at], entry.value.as_deref()) {
                    // gcfg: a blank multi-valued variable clears the list.
                    (GlobalValue::Multi(list), None) => list.clear(),
                    (GlobalValue::Multi(list), Some(v)) => list.push(v.to_owned()),
                    // gcfg: a blank bool is true.
                    (GlobalValue::Bool(b), None) => *b = true,
                    (GlobalValue::Bool(b), Some(v)) => {
                        *b = read(section, name, v, gcfg::parse_bool, BOOL)?;
                    }
                    (GlobalValue::Str(_) | GlobalValue::Int(_), None) => {
                        return Err(no_value(section, name));
                    }
                    (GlobalValue::Int(n), Some(v)) => {
                        *n = read(section, name, v, gcfg_int, WHOLE_NUMBER)?;
                    }
                    (GlobalValue::Str(s), Some(v)) => *s = Some(v.to_owned()),
                }
            }
        } else if !section.name.eq_ignore_ascii_case("ServiceOverride") {
            warnings.push(format!("dropped unknown section {}", section.header()));
        }
    }
    Ok(Global { values })
}

/// Each `[ServiceOverride "…"]` with its known keys in struct order and empty values left out.
fn read_overrides(ini: &Ini, warnings: &mut Vec<String>) -> Result<Vec<Section>> {
    let mut out = Vec::new();
    for section in &ini.sections {
        if !section.name.eq_ignore_ascii_case("ServiceOverride") {
            continue;
        }
        let mut values = vec![String::new(); SERVICE_OVERRIDE.len()];
        for entry in &section.entries {
            let Some(at) = find(
                section,
                &entry.key,
                SERVICE_OVERRIDE,
                |n| Some(*n),
                warnings,
            ) else {
                continue;
            };
            let Some(value) = &entry.value else {
                return Err(no_value(section, SERVICE_OVERRIDE[at]));
            };
            values[at].clone_from(value);
        }
        let mut written = Section::new("ServiceOverride", section.sub.as_deref());
        for (name, value) in SERVICE_OVERRIDE.iter().zip(&values) {
            if !value.is_empty() {
                written.push(name, value);
            }
        }
        out.push(written);
    }
    Ok(out)
}

/// A gcfg int ([`gcfg::parse_int`]) that fits Go's int32.
fn gcfg_int(value: &str) -> Option<i32> {
    gcfg::parse_int(value).and_then(|n| i32::try_from(n).ok())
}

#[cfg(test)]
mod tests {
    use super::super::test_support::*;
    use super::*;
    use pretty_assertions::assert_eq;
    use proptest::prelude::*;

    const DEFAULT3: &str = "[Global]\n\
DisableSecurityGroupIngress                     = false\n\
ClusterServiceLoadBalancerHealthProbeMode       = Shared\n\
ClusterServiceSharedLoadBalancerHealthProbePort = 0\n";

    const GLOBAL_FOO: &str = "[Global]\n\
Zone                                            = Foo\n\
DisableSecurityGroupIngress                     = true\n\
ClusterServiceLoadBalancerHealthProbeMode       = Shared\n\
ClusterServiceSharedLoadBalancerHealthProbePort = 0\n";

    const OVERRIDES: &str = "\n[ServiceOverride \"1\"]\n\
Service       = ec2\n\
Region        = us-west-2\n\
URL           = https://ec2.foo.bar\n\
SigningRegion = signing_region\n\
\n[ServiceOverride \"2\"]\n\
Service       = s3\n\
Region        = us-west-1\n\
URL           = https://s3.foo.bar\n\
SigningRegion = signing_region\n";

    const SOURCE_FOO: &str = "[Global]\nDisableSecurityGroupIngress = true\nZone = Foo\n";

    fn run(source: &str, gates: &dyn Fn(&str) -> bool) -> Result<Transformed> {
        let infra = infra("AWS");
        transform(source, &ctx(&infra, gates))
    }

    fn text(source: &str, gates: &dyn Fn(&str) -> bool) -> String {
        run(source, gates).expect("transforms").text
    }

    #[test]
    fn the_fields_openshift_defaults_are_string_fields_of_global() {
        let mut global = read_global(&Ini::default(), &mut Vec::new()).expect("reads");
        for name in [PROBE_MODE, NLB_MODE] {
            assert_eq!(global.str_mut(name), Some(&mut None), "{name}");
        }
        assert_eq!(global.str_mut("DisableSecurityGroupIngress"), None);
        assert_eq!(global.str_mut("Bogus"), None);
    }

    #[test]
    fn aws_empty_or_blank_global_gets_the_openshift_defaults() {
        assert_eq!(text("", &no_gates), DEFAULT3);
        assert_eq!(text("[Global]\n\t\t\t", &no_gates), DEFAULT3);
    }

    #[test]
    fn aws_global_keys_come_out_in_struct_order_with_defaults() {
        assert_eq!(text(SOURCE_FOO, &no_gates), GLOBAL_FOO);
    }

    #[test]
    fn aws_service_overrides_follow_global() {
        let source = format!(
            "{SOURCE_FOO}[ServiceOverride \"1\"]\nService = ec2\nRegion = us-west-2\nURL = https://ec2.foo.bar\nSigningRegion = signing_region\n\
             [ServiceOverride \"2\"]\nService = s3\nRegion = us-west-1\nURL = https://s3.foo.bar\nSigningRegion = signing_region\n"
        );
        assert_eq!(text(&source, &no_gates), format!("{GLOBAL_FOO}{OVERRIDES}"));
    }

    #[test]
    fn aws_nlb_gate_switches_security_group_mode_to_managed() {
        let nlb = "NLBSecurityGroupMode                            = Managed\n";
        assert_eq!(text(SOURCE_FOO, &all_gates), format!("{GLOBAL_FOO}{nlb}"));
        let only_other = |name: &str| name != NLB_GATE;
        assert_eq!(text(SOURCE_FOO, &only_other), GLOBAL_FOO);
    }

    #[test]
    fn aws_nlb_gate_overriding_another_mode_is_reported() {
        let out = run("[Global]\nNLBSecurityGroupMode = Unmanaged\n", &all_gates).expect("ok");
        assert!(
            out.text
                .contains("NLBSecurityGroupMode                            = Managed")
        );
        assert_eq!(out.warnings.len(), 1, "{:?}", out.warnings);
        let kept = text("[Global]\nNLBSecurityGroupMode = Managed\n", &no_gates);
        assert!(kept.contains("= Managed"), "{kept}");
    }

    #[test]
    fn aws_node_ip_families_stay_repeated_keys_in_input_order() {
        let expected = "[Global]\n\
DisableSecurityGroupIngress                     = false\n\
NodeIPFamilies                                  = ipv6\n\
NodeIPFamilies                                  = ipv4\n\
ClusterServiceLoadBalancerHealthProbeMode       = Shared\n\
ClusterServiceSharedLoadBalancerHealthProbePort = 0\n";
        let source = "[Global]\nNodeIPFamilies = ipv6\nNodeIPFamilies = ipv4\n";
        assert_eq!(text(source, &no_gates), expected);
        let v4_first = text(
            "[Global]\nNodeIPFamilies = ipv4\nNodeIPFamilies = ipv6\n",
            &no_gates,
        );
        assert!(v4_first.find("ipv4") < v4_first.find("ipv6"), "{v4_first}");
    }

    #[test]
    fn aws_blank_multi_value_clears_the_list_as_gcfg_does() {
        let out = text(
            "[Global]\nNodeIPFamilies = ipv4\nNodeIPFamilies\nNodeIPFamilies = ipv6\n",
            &no_gates,
        );
        assert!(!out.contains("ipv4") && out.contains("ipv6"), "{out}");
    }

    #[test]
    fn aws_names_match_without_case_and_are_written_canonically() {
        let out = text(
            "[global]\nzone = a\ndisablesecuritygroupingress\n[serviceoverride \"x\"]\nurl = u\n",
            &no_gates,
        );
        assert!(
            out.starts_with("[Global]\nZone                                            = a\n"),
            "{out}"
        );
        assert!(
            out.contains("DisableSecurityGroupIngress                     = true"),
            "{out}"
        );
        assert!(out.contains("[ServiceOverride \"x\"]\nURL = u\n"), "{out}");
    }

    #[test]
    fn aws_bools_and_ints_are_normalised_the_gcfg_way() {
        let out = text(
            "[Global]\nDisableSecurityGroupIngress = YES\nClusterServiceSharedLoadBalancerHealthProbePort = 0x2800\n",
            &no_gates,
        );
        assert!(
            out.contains("DisableSecurityGroupIngress                     = true"),
            "{out}"
        );
        assert!(
            out.contains("ClusterServiceSharedLoadBalancerHealthProbePort = 10240"),
            "{out}"
        );
    }

    #[test]
    fn aws_user_probe_mode_is_kept() {
        let out = text(
            "[Global]\nClusterServiceLoadBalancerHealthProbeMode = ServiceNodePort\n",
            &no_gates,
        );
        assert!(out.contains("= ServiceNodePort"), "{out}");
    }

    #[test]
    fn aws_unknown_keys_and_sections_are_dropped_with_warnings() {
        let out = run(
            "[Global]\nFoo = bar\n[Other]\nx = 1\n[ServiceOverride \"1\"]\nBogus = 1\n",
            &no_gates,
        )
        .expect("ok");
        assert!(
            !out.text.contains("Foo") && !out.text.contains("Other") && !out.text.contains("Bogus")
        );
        assert_eq!(
            out.warnings,
            vec![
                "dropped unknown key [Global] Foo",
                "dropped unknown section [Other]",
                "dropped unknown key [ServiceOverride \"1\"] Bogus",
            ]
        );
    }

    #[test]
    fn aws_service_overrides_sort_numerically() {
        let source = "[ServiceOverride \"10\"]\nService = a\n[ServiceOverride \"2\"]\nService = b\n[ServiceOverride \"x\"]\nService = c\n";
        let out = text(source, &no_gates);
        let order: Vec<_> = out
            .lines()
            .filter(|l| l.starts_with("[ServiceOverride"))
            .collect();
        assert_eq!(
            order,
            vec![
                "[ServiceOverride \"2\"]",
                "[ServiceOverride \"10\"]",
                "[ServiceOverride \"x\"]"
            ]
        );
    }

    #[test]
    fn aws_values_with_comment_characters_stay_readable_by_gcfg() {
        let out = text(
            "[Global]\nRoleARN = \"arn:aws:iam::1:role/a#b;c\"\n",
            &no_gates,
        );
        assert!(
            out.contains(
                "RoleARN                                         = \"arn:aws:iam::1:role/a#b;c\""
            ),
            "{out}"
        );
        let back = parse(&out).expect("gcfg syntax").0;
        assert_eq!(
            back.section("Global", None).and_then(|s| s.get("RoleARN")),
            Some("arn:aws:iam::1:role/a#b;c")
        );
    }

    #[test]
    fn aws_errors_say_what_and_where() {
        for (source, needle) in [
            (
                "[Global]\nDisableSecurityGroupIngress = maybe\n",
                "[Global] DisableSecurityGroupIngress is \"maybe\"",
            ),
            (
                "[Global]\nClusterServiceSharedLoadBalancerHealthProbePort = 99999999999\n",
                "expected a whole number",
            ),
            ("[Global]\nZone\n", "[Global] Zone has no value"),
            (
                "[ServiceOverride \"1\"]\nURL\n",
                "[ServiceOverride \"1\"] URL has no value",
            ),
            ("Zone = a\n", "line 1"),
        ] {
            let err = format!("{:#}", run(source, &no_gates).expect_err(source));
            assert!(err.contains(needle), "{source:?}: {err}");
            assert_eq!(err.lines().count(), 1);
        }
    }

    #[test]
    fn aws_conformance_case_is_byte_for_byte() {
        let infra = conformance_yaml("aws/infrastructure.yaml");
        let gates = |name: &str| name == NLB_GATE; // on in the Default feature set
        let out = transform(&conformance_source("aws"), &ctx(&infra, &gates)).expect("ok");
        assert_eq!(out.text, conformance_expected("aws"));
        assert!(out.warnings.is_empty(), "{:?}", out.warnings);
    }

    fn aws_source() -> impl Strategy<Value = String> {
        let line = prop_oneof![
            Just("Zone = us-east-1a".to_owned()),
            Just("NodeIPFamilies = ipv6".to_owned()),
            Just("NodeIPFamilies".to_owned()),
            Just("DisableSecurityGroupIngress = on".to_owned()),
            Just("NLBSecurityGroupMode = Managed".to_owned()),
            Just("Unknown = x".to_owned()),
            "[^\u{0}\r\n\"\\\\]{0,12}".prop_map(|v| format!("RoleARN = \"{v}\"")),
            "[0-9]{1,2}".prop_map(|n| format!("[ServiceOverride \"{n}\"]\nService = ec2")),
            Just("[Global]".to_owned()),
        ];
        proptest::collection::vec(line, 0..8)
            .prop_map(|lines| format!("[Global]\n{}\n", lines.join("\n")))
    }

    proptest! {
        #[test]
        fn aws_transform_is_idempotent(source in aws_source(), gate in any::<bool>()) {
            let gates = move |_: &str| gate;
            let once = text(&source, &gates);
            let twice = text(&once, &gates);
            prop_assert_eq!(&twice, &once);
        }
    }
}
