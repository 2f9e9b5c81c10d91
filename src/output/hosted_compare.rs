//! The reviewer's comparison of a platform's hosted CCM with its standalone one: field by field
//! where the two mean the same thing (the CCM binary and flags, environment, image, resource
//! requests, the cloud config's keys), so that a fix made in one place only stands out. Pure:
//! two renders in, lines of text out.

use crate::render::Rendered;
use anyhow::{Context as _, Result};
use ccm_catalogue::json_fields::{kind_of, name_of};
use serde_json::Value;
use std::collections::BTreeMap;
use std::fmt::Write as _;

/// What the comparison reads of one render, as `field -> value`.
pub(crate) type Facts = BTreeMap<String, String>;

/// The facts of a render's CCM container (`container`) and of its cloud config: the ConfigMap
/// or Secret `config` names (kind and name), when there is one.
pub(crate) fn facts(
    rendered: &Rendered,
    container: &str,
    config: Option<(&str, &str)>,
) -> Result<Facts> {
    let mut out = Facts::new();
    let deployment = rendered.manifests.iter().find(|o| {
        o["kind"] == "Deployment"
            && o.pointer("/spec/template/spec/containers")
                .and_then(Value::as_array)
                .is_some_and(|c| c.iter().any(|c| c["name"] == container))
    });
    if let Some(c) = deployment
        .and_then(|d| d.pointer("/spec/template/spec/containers"))
        .and_then(Value::as_array)
        .and_then(|list| list.iter().find(|c| c["name"] == container))
    {
        container_facts(c, &mut out);
    }
    if let Some(config) = config.and_then(|(kind, name)| {
        rendered
            .manifests
            .iter()
            .find(|o| o["kind"] == kind && o["metadata"]["name"] == name)
    }) {
        config_facts(config, &mut out)?;
    }
    Ok(out)
}

fn container_facts(c: &Value, out: &mut Facts) {
    let command: Vec<&str> = c["command"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .collect();
    let mut words: Vec<String> = Vec::new();
    if command.first() == Some(&"/bin/bash") && command.len() == 3 {
        // CCCMO's `exec BINARY \` script: the binary and one flag per line.
        let mut in_exec = false;
        for line in command[2].lines() {
            let line = line.trim().trim_end_matches('\\').trim();
            if let Some(binary) = line.strip_prefix("exec ") {
                in_exec = true;
                words.push(binary.trim().to_string());
            } else if in_exec && !line.is_empty() {
                words.push(line.to_string());
            }
        }
    } else {
        words.extend(command.iter().map(|s| (*s).to_string()));
    }
    words.extend(
        c["args"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(Value::as_str)
            .map(str::to_string),
    );
    if let Some(binary) = words.first().filter(|w| !w.starts_with('-')) {
        out.insert("binary".into(), binary.clone());
    }
    for word in words.iter().filter(|w| w.starts_with('-')) {
        let (name, value) = word.split_once('=').unwrap_or((word, ""));
        out.insert(
            format!("flag {}", name.trim_start_matches('-')),
            value.to_string(),
        );
    }
    for e in c["env"].as_array().into_iter().flatten() {
        let value = match e.get("value") {
            Some(Value::String(v)) => v.clone(),
            _ => e.get("valueFrom").map(Value::to_string).unwrap_or_default(),
        };
        out.insert(
            format!("env {}", e["name"].as_str().unwrap_or_default()),
            value,
        );
    }
    if let Some(image) = c["image"].as_str() {
        out.insert("image".into(), image.to_string());
    }
    for (kind, list) in [("request", "requests"), ("limit", "limits")] {
        for (name, v) in c["resources"][list].as_object().into_iter().flatten() {
            out.insert(
                format!("{kind} {name}"),
                v.as_str().map_or_else(|| v.to_string(), str::to_string),
            );
        }
    }
}

/// The keys of the cloud config text: `[Section] key = value` lines of an INI file, or the
/// top-level keys of a JSON one (Azure's).
fn config_facts(config: &Value, out: &mut Facts) -> Result<()> {
    let secret = config["kind"] == "Secret";
    for (key, value) in config["data"].as_object().into_iter().flatten() {
        // A CA bundle beside the config is not the config.
        let is_pem = std::path::Path::new(key)
            .extension()
            .is_some_and(|e| e.eq_ignore_ascii_case("pem"));
        let Some(text) = value.as_str().filter(|_| !is_pem) else {
            continue;
        };
        let text = if secret {
            use base64::Engine as _;
            match base64::engine::general_purpose::STANDARD
                .decode(text)
                .ok()
                .and_then(|b| String::from_utf8(b).ok())
            {
                Some(t) => t,
                None => continue,
            }
        } else {
            text.to_string()
        };
        if let Ok(Value::Object(map)) = serde_json::from_str::<Value>(&text) {
            for (k, v) in map {
                out.insert(
                    format!("config {k}"),
                    v.as_str().map_or_else(|| v.to_string(), str::to_string),
                );
            }
            continue;
        }
        // Read as the CCMs read it (gcfg), with the reader the render uses: names without
        // case, quotes and escapes undone, repeated sections merged.
        let (ini, _) = crate::render::cloud_config::ini::parse(&text).with_context(|| {
            format!(
                "{} {}: {key} is neither JSON nor INI",
                kind_of(config),
                name_of(config)
            )
        })?;
        for section in &ini.sections {
            let name = section.name.to_ascii_lowercase();
            let section_name = match &section.sub {
                Some(sub) => format!("[{name} {sub:?}]"),
                None => format!("[{name}]"),
            };
            for entry in &section.entries {
                out.insert(
                    format!("config {section_name} {}", entry.key.to_ascii_lowercase()),
                    // An empty value is shown as written, so that it does not read as a
                    // missing one.
                    match entry.value.as_deref() {
                        Some("") => "\"\"".to_string(),
                        value => value.unwrap_or_default().to_string(),
                    },
                );
            }
        }
    }
    Ok(())
}

/// One line of [`report`]: a field and its value on each side ("-" where it has none).
struct Row<'a> {
    /// Where the row sorts: the differences first, then what one side only has, then what
    /// agrees.
    rank: u8,
    /// `=` the same, `≠` different, `<` standalone only, `>` hosted only.
    mark: &'static str,
    field: &'a str,
    standalone: &'a str,
    hosted: &'a str,
}

/// One line per field of either side: `=` the same, `≠` different, `<` standalone only, `>`
/// hosted only; the differences first, then what agrees.
pub(crate) fn report(standalone: &Facts, hosted: &Facts) -> String {
    let mut rows: Vec<Row<'_>> = Vec::new();
    let keys: std::collections::BTreeSet<&String> =
        standalone.keys().chain(hosted.keys()).collect();
    for key in keys {
        let (s, h) = (standalone.get(key), hosted.get(key));
        let (rank, mark) = match (s, h) {
            (Some(a), Some(b)) if a == b => (3, "="),
            (Some(_), Some(_)) => (0, "≠"),
            (Some(_), None) => (1, "<"),
            _ => (2, ">"),
        };
        rows.push(Row {
            rank,
            mark,
            field: key,
            standalone: s.map_or("-", String::as_str),
            hosted: h.map_or("-", String::as_str),
        });
    }
    rows.sort_by_key(|r| r.rank);
    let width = rows
        .iter()
        .map(|r| r.field.chars().count())
        .max()
        .unwrap_or(0);
    let mut out = String::new();
    for row in rows {
        let _ = writeln!(
            out,
            "{} {:width$}  standalone: {}  hosted: {}",
            row.mark, row.field, row.standalone, row.hosted
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn flags_from_a_script_and_from_args_compare_by_name() {
        let standalone = Rendered {
            manifests: vec![
                json!({"kind": "Deployment", "spec": {"template": {"spec": {"containers": [{
                "name": "ccm", "command": ["/bin/bash", "-c", "set -e\nexec /bin/ccm \\\n  --a=1 \\\n  --b=2\n"]}]}}}}),
            ],
            ..Rendered::default()
        };
        let hosted = Rendered {
            manifests: vec![
                json!({"kind": "Deployment", "spec": {"template": {"spec": {"containers": [{
                "name": "ccm", "command": ["/bin/ccm"], "args": ["--a=1", "--c"]}]}}}}),
            ],
            ..Rendered::default()
        };
        let text = report(
            &facts(&standalone, "ccm", None).expect("facts"),
            &facts(&hosted, "ccm", None).expect("facts"),
        );
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[0], "< flag b  standalone: 2  hosted: -", "{text}");
        assert_eq!(lines[1], "> flag c  standalone: -  hosted: ", "{text}");
        assert!(
            lines.contains(&"= binary  standalone: /bin/ccm  hosted: /bin/ccm"),
            "{text}"
        );
    }

    #[test]
    fn an_ini_cloud_config_is_compared_as_gcfg_reads_it() {
        let config = json!({"kind": "ConfigMap", "data": {"cloud.conf": concat!(
            "[Global]\n",
            "Zone = \"us-east-1a\" ; a comment\n",
            "region =\n",
            "blank\n",
            "[ServiceOverride \"0\"]\n",
            "URL = https://example.com\n",
            "[global]\n",
            "vpc = v\n",
        )}});
        let mut facts = Facts::new();
        config_facts(&config, &mut facts).expect("reads");
        let want = [
            ("config [global] blank", ""),
            ("config [global] region", "\"\""),
            ("config [global] vpc", "v"),
            ("config [global] zone", "us-east-1a"),
            ("config [serviceoverride \"0\"] url", "https://example.com"),
        ];
        assert_eq!(
            facts,
            want.iter()
                .map(|(k, v)| ((*k).to_string(), (*v).to_string()))
                .collect::<Facts>()
        );
    }

    #[test]
    fn a_cloud_config_that_is_not_ini_is_an_error_naming_the_object() {
        let config = json!({"kind": "ConfigMap", "metadata": {"name": "cloud-conf"},
            "data": {"cloud.conf": "[Global\n"}});
        let err = config_facts(&config, &mut Facts::new()).expect_err("not INI");
        assert!(
            format!("{err:#}")
                .starts_with("ConfigMap cloud-conf: cloud.conf is neither JSON nor INI: "),
            "{err:#}"
        );
    }
}
