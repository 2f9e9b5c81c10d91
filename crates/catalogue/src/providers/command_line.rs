//! A CCM's command line held to what the CCM binary knows (`spec.ccm` of the descriptor): every
//! `--flag` of a container's command is one the binary registers, and every `--controllers`
//! entry is a controller it knows, or an alias its `main.go` passes. A flag it does not register
//! makes the binary exit before it does anything (pflag's "unknown flag"), and an unknown
//! controller name makes it refuse to start ("is not in the list of known controllers").

use super::descriptor::CcmCommandLine;
use anyhow::{Context as _, Result, bail};
use serde_json::Value;
use std::collections::BTreeSet;

/// Checks `spec.ccm` on its own; errors start with the field.
pub(crate) fn check_spec(ccm: &CcmCommandLine) -> Result<()> {
    const FIELD: &str = "spec.ccm";
    if ccm.source.trim().is_empty() {
        bail!("{FIELD}.source: say where the lists come from");
    }
    let mut seen = BTreeSet::new();
    for (i, flag) in ccm.flags.iter().enumerate() {
        let name = flag.strip_prefix("--").unwrap_or_default();
        if name.is_empty()
            || !name
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || "-_".contains(c))
        {
            bail!("{FIELD}.flags[{i}]: {flag:?} is not a flag name (--name)");
        }
        if !seen.insert(flag.as_str()) {
            bail!("{FIELD}.flags[{i}]: {flag:?} is listed twice");
        }
    }
    if !seen.contains("--controllers") {
        bail!("{FIELD}.flags: names no --controllers, which every CCM's command line sets");
    }
    if ccm.controllers.is_empty() {
        bail!("{FIELD}.controllers: name the controllers the CCM knows");
    }
    for (alias, name) in &ccm.aliases {
        if !ccm.controllers.contains(name) {
            bail!(
                "{FIELD}.aliases: {alias:?} stands for {name:?}, which is not in spec.ccm.controllers"
            );
        }
    }
    for (release, older) in &ccm.releases {
        let field = format!("{FIELD}.releases[{release}]");
        if version(release).is_none() {
            bail!("{field}: {release:?} is not a release (X.Y)");
        }
        if older.source.trim().is_empty() {
            bail!("{field}.source: say where the lists come from");
        }
        for (list, known, items) in [
            ("withoutFlags", &ccm.flags, &older.without_flags),
            (
                "withoutControllers",
                &ccm.controllers,
                &older.without_controllers,
            ),
        ] {
            if let Some(item) = items.iter().find(|item| !known.contains(item)) {
                bail!("{field}.{list}: {item:?} is not in the newest release's list");
            }
        }
    }
    Ok(())
}

/// The command line of the CCM of `release` (None: the newest): the lists less what that
/// release and every newer one in `spec.ccm.releases` lack; the source, the oldest of those.
pub fn for_release(ccm: &CcmCommandLine, release: Option<&str>) -> CcmCommandLine {
    let mut out = CcmCommandLine {
        releases: std::collections::BTreeMap::new(),
        ..ccm.clone()
    };
    let Some(release) = release else {
        return out;
    };
    let wanted = version(release);
    // Newest first, so that the last source taken is the release's own (or the closest newer).
    let mut older: Vec<_> = ccm
        .releases
        .iter()
        .filter(|(r, _)| version(r) >= wanted)
        .collect();
    older.sort_by_key(|(r, _)| std::cmp::Reverse(version(r)));
    for (_, lacks) in older {
        out.flags.retain(|f| !lacks.without_flags.contains(f));
        out.controllers
            .retain(|c| !lacks.without_controllers.contains(c));
        out.aliases
            .retain(|_, c| !lacks.without_controllers.contains(c));
        out.source.clone_from(&lacks.source);
    }
    out
}

/// A release `X.Y` as numbers, to compare; None for anything else.
fn version(release: &str) -> Option<(u32, u32)> {
    let (major, minor) = release.split_once('.')?;
    Some((major.parse().ok()?, minor.parse().ok()?))
}

/// Checks the command line of every container of a Pod (a bootstrap static pod) against what
/// the CCM knows; errors start with the container's field.
pub fn check_pod(pod: &Value, ccm: &CcmCommandLine) -> Result<()> {
    let containers = pod.pointer("/spec/containers").and_then(Value::as_array);
    for (i, container) in containers.into_iter().flatten().enumerate() {
        let field = format!("spec.containers[{i}].command");
        let args = arguments(container).with_context(|| field.clone())?;
        check_arguments(&args, ccm).with_context(|| field.clone())?;
    }
    Ok(())
}

/// The arguments a container passes to its program: the words after the program of the `exec`
/// line of a `[SHELL, -c, SCRIPT]` command, or else `command[1..]` and `args`.
fn arguments(container: &Value) -> Result<Vec<String>> {
    let strings = |pointer: &str| -> Vec<String> {
        container
            .pointer(pointer)
            .and_then(Value::as_array)
            .map(|list| {
                list.iter()
                    .filter_map(Value::as_str)
                    .map(str::to_string)
                    .collect()
            })
            .unwrap_or_default()
    };
    let command = strings("/command");
    let is_shell = command.len() == 3
        && matches!(command[0].rsplit('/').next(), Some("bash" | "sh"))
        && command[1] == "-c";
    if is_shell {
        return crate::script::Script::parse(&command[2])
            .exec_arguments()
            .ok_or_else(|| {
                anyhow::anyhow!("the script has no line starting with `exec ` that runs the CCM")
            });
    }
    let mut args: Vec<String> = command.into_iter().skip(1).collect();
    args.extend(strings("/args"));
    Ok(args)
}

/// Checks the arguments of a CCM's command line: each a `--flag` or `--flag=VALUE` the CCM
/// registers, and each `--controllers` entry a controller it knows (`*` and `-NAME` too).
pub(crate) fn check_arguments(args: &[String], ccm: &CcmCommandLine) -> Result<()> {
    for arg in args {
        let Some(rest) = arg.strip_prefix("--") else {
            bail!("{arg:?} is not a --flag (write each flag as --name=value)");
        };
        let (name, value) = rest.split_once('=').unwrap_or((rest, ""));
        let flag = format!("--{name}");
        if !ccm.flags.contains(&flag) {
            bail!("{flag} is not a flag this CCM registers (spec.ccm.flags): it exits on it");
        }
        if flag == "--controllers" {
            check_controllers(value, ccm)?;
        }
    }
    Ok(())
}

fn check_controllers(value: &str, ccm: &CcmCommandLine) -> Result<()> {
    for entry in value.split(',') {
        let name = entry.strip_prefix('-').unwrap_or(entry);
        if name == "*" || ccm.controllers.iter().any(|c| c == name) {
            continue;
        }
        let aliases = if ccm.aliases.is_empty() {
            "its main.go passes no aliases".to_string()
        } else {
            let list: Vec<String> = ccm
                .aliases
                .iter()
                .map(|(a, c)| format!("{a} for {c}"))
                .collect();
            format!("aliases: {}", list.join(", "))
        };
        if ccm.aliases.contains_key(name) {
            continue;
        }
        bail!(
            "--controllers: {name:?} is not in the list of controllers this CCM knows ({}; {aliases})",
            ccm.controllers.join(", ")
        );
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::providers::CcmRelease;
    use serde_json::json;

    fn ccm(aliases: &[(&str, &str)]) -> CcmCommandLine {
        CcmCommandLine {
            source: "a test CCM".to_string(),
            flags: ["--cloud-provider", "--controllers", "--v"]
                .map(String::from)
                .to_vec(),
            controllers: vec![
                "cloud-node-controller".to_string(),
                "service-lb-controller".to_string(),
            ],
            aliases: aliases
                .iter()
                .map(|(a, c)| ((*a).to_string(), (*c).to_string()))
                .collect(),
            releases: std::collections::BTreeMap::new(),
        }
    }

    fn pod(script: &str) -> Value {
        json!({"spec": {"containers": [{"name": "ccm", "command": ["/bin/bash", "-c", script]}]}})
    }

    const GOOD: &str = "#!/bin/bash\nexec /bin/ccm \\\n  --cloud-provider=x \\\n  --controllers=cloud-node-controller \\\n  --v=2\n";

    #[test]
    fn a_command_line_of_known_flags_and_controllers_passes() {
        check_pod(&pod(GOOD), &ccm(&[])).expect("every flag and controller is known");
    }

    #[test]
    fn a_flag_the_ccm_does_not_register_fails_naming_it() {
        let script = GOOD.replace("--v=2", "--bind-adress=127.0.0.1");
        let err = check_pod(&pod(&script), &ccm(&[])).expect_err("unknown flag");
        assert!(
            format!("{err:#}").starts_with(
                "spec.containers[0].command: --bind-adress is not a flag this CCM registers"
            ),
            "{err}"
        );
    }

    #[test]
    fn an_alias_passes_only_where_main_go_passes_aliases() {
        let script = GOOD.replace("cloud-node-controller", "cloud-node");
        let err = check_pod(&pod(&script), &ccm(&[])).expect_err("no aliases");
        assert!(
            format!("{err:#}").contains(
                "--controllers: \"cloud-node\" is not in the list of controllers this CCM knows (cloud-node-controller, service-lb-controller; its main.go passes no aliases)"
            ),
            "{err}"
        );
        check_pod(
            &pod(&script),
            &ccm(&[("cloud-node", "cloud-node-controller")]),
        )
        .expect("an alias main.go passes");
    }

    #[test]
    fn every_controllers_entry_is_checked_and_star_and_minus_are_kept() {
        let ok = ["--controllers=*,-service-lb-controller".to_string()];
        check_arguments(&ok, &ccm(&[])).expect("star and a disabled known controller");
        let bad = ["--controllers=cloud-node-controller,route".to_string()];
        assert!(check_arguments(&bad, &ccm(&[])).is_err());
    }

    #[test]
    fn a_word_that_is_not_a_long_flag_fails() {
        for arg in ["-v=2", "positional"] {
            assert!(
                check_arguments(&[arg.to_string()], &ccm(&[])).is_err(),
                "{arg}"
            );
        }
    }

    #[test]
    fn a_script_without_exec_fails_and_a_plain_command_is_read_too() {
        assert!(check_pod(&pod("echo hi\n"), &ccm(&[])).is_err());
        let plain = json!({"spec": {"containers": [{
            "name": "ccm",
            "command": ["/bin/ccm", "--cloud-provider=x"],
            "args": ["--no-such-flag"]
        }]}});
        let err = check_pod(&plain, &ccm(&[])).expect_err("args are checked");
        assert!(format!("{err:#}").contains("--no-such-flag"), "{err}");
    }

    #[test]
    fn an_older_release_lacks_what_it_and_every_newer_release_lack() {
        let mut with_releases = ccm(&[("service", "service-lb-controller")]);
        let lack = |source: &str, flags: &[&str], controllers: &[&str]| CcmRelease {
            source: source.to_string(),
            without_flags: flags.iter().map(ToString::to_string).collect(),
            without_controllers: controllers.iter().map(ToString::to_string).collect(),
        };
        with_releases.releases = [
            ("4.22".to_string(), lack("b-4.22", &["--v"], &[])),
            (
                "4.19".to_string(),
                lack("b-4.19", &[], &["service-lb-controller"]),
            ),
        ]
        .into();
        check_spec(&with_releases).expect("valid");
        let newest = for_release(&with_releases, None);
        assert_eq!(newest.flags.len(), 3);
        let r421 = for_release(&with_releases, Some("4.21"));
        assert_eq!(r421.flags, ["--cloud-provider", "--controllers"]);
        assert_eq!(r421.source, "b-4.22");
        assert_eq!(r421.controllers.len(), 2);
        let r418 = for_release(&with_releases, Some("4.18"));
        assert_eq!(r418.controllers, ["cloud-node-controller"]);
        assert!(r418.aliases.is_empty(), "an alias of a controller it lacks");
        assert_eq!(r418.source, "b-4.19");
        let err = check_arguments(&["--v=2".to_string()], &r421).expect_err("4.21 lacks --v");
        assert!(format!("{err:#}").contains("--v is not a flag"), "{err}");
        with_releases
            .releases
            .insert("4.20".to_string(), lack("x", &["--nope"], &[]));
        assert!(
            check_spec(&with_releases).is_err(),
            "lacks what the list does not have"
        );
    }

    #[test]
    fn the_lists_are_checked() {
        let mut bad = ccm(&[("route", "node-route-controller")]);
        assert!(check_spec(&bad).is_err(), "alias of an unknown controller");
        bad = ccm(&[]);
        bad.flags.push("--v".to_string());
        assert!(check_spec(&bad).is_err(), "a flag twice");
        bad = ccm(&[]);
        bad.flags[0] = "cloud-provider".to_string();
        assert!(check_spec(&bad).is_err(), "not --name");
        bad = ccm(&[]);
        bad.source = " ".to_string();
        assert!(check_spec(&bad).is_err(), "no source");
        check_spec(&ccm(&[("cloud-node", "cloud-node-controller")])).expect("good");
    }
}
