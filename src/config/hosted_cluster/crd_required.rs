//! The HostedCluster CRD's `required` fields and `minProperties` of every object under `spec`,
//! as the API server's schema validation refuses a HostedCluster without them, after the CRD's
//! defaults (`autoNode: {}` without its `provisionerConfig`, `etcd.managed` without its `storage`,
//! `monitoring: {}`). `crd_required.txt` is generated from HyperShift's
//! `cmd/install/assets/crds/hypershift-operator/zz_generated.crd-manifests/
//! hostedclusters-Hypershift-Default.crd.yaml` at 3ee96155, and marked `techpreview`, what only
//! `hostedclusters-Hypershift-TechPreviewNoUpgrade.crd.yaml` adds (its header says how to read it).

use serde_json::Value;
use std::collections::{HashMap, HashSet};
use std::sync::OnceLock;

const TABLE: &str = include_str!("crd_required.txt");

/// What one object of the schema requires.
struct Rule {
    /// Only in the TechPreviewNoUpgrade CRD.
    tech_preview: bool,
    required: Vec<&'static str>,
    min_properties: Option<usize>,
}

struct Rules {
    by_path: HashMap<&'static str, Vec<Rule>>,
    /// Every prefix of a path with a rule: where the walk goes on.
    prefixes: HashSet<&'static str>,
}

fn rules() -> &'static Rules {
    static RULES: OnceLock<Rules> = OnceLock::new();
    RULES.get_or_init(|| {
        let mut by_path = HashMap::new();
        let mut prefixes = HashSet::new();
        for line in TABLE.lines().filter(|l| !l.starts_with('#')) {
            let (tech_preview, line) = match line.strip_prefix("techpreview ") {
                Some(rest) => (true, rest),
                None => (false, line),
            };
            let mut words = line.split(' ');
            let path = words.next().unwrap_or_default();
            let mut rule = Rule {
                tech_preview,
                required: Vec::new(),
                min_properties: None,
            };
            for word in words {
                match word.strip_prefix("min=") {
                    Some(n) => rule.min_properties = n.parse().ok(),
                    None => rule.required.push(word),
                }
            }
            for (i, c) in path.char_indices() {
                if matches!(c, '.' | '[' | '{') {
                    prefixes.insert(&path[..i]);
                }
            }
            prefixes.insert(path);
            by_path.entry(path).or_insert_with(Vec::new).push(rule);
        }
        Rules { by_path, prefixes }
    })
}

/// The first object under `spec` that lacks a field its schema requires or has fewer
/// properties than it must: `(field, problem)`. `tech_preview`: the TechPreviewNoUpgrade CRD's
/// rules too (GCP and OpenStack, which only that CRD admits).
pub(crate) fn first_missing(spec: &Value, tech_preview: bool) -> Option<(String, String)> {
    let walk = Walk {
        rules: rules(),
        tech_preview,
    };
    walk.at(spec, "spec", "spec".to_string())
}

struct Walk {
    rules: &'static Rules,
    tech_preview: bool,
}

impl Walk {
    fn at(&self, value: &Value, pattern: &str, at: String) -> Option<(String, String)> {
        let rules = self.rules;
        match value {
            Value::Object(map) => {
                let applying = rules.by_path.get(pattern).into_iter().flatten();
                for rule in applying.filter(|r| self.tech_preview || !r.tech_preview) {
                    for field in &rule.required {
                        if map.get(*field).is_none_or(Value::is_null) {
                            return Some((format!("{at}.{field}"), "Required value".into()));
                        }
                    }
                    if let Some(least) = rule.min_properties
                        && map.len() < least
                    {
                        return Some((
                            at,
                            format!("must have at least {least} properties, has {}", map.len()),
                        ));
                    }
                }
                let mut keys: Vec<&String> = map.keys().collect();
                keys.sort();
                for key in keys {
                    for child in [format!("{pattern}.{key}"), format!("{pattern}{{}}")] {
                        if rules.prefixes.contains(child.as_str())
                            && let Some(found) = self.at(&map[key], &child, format!("{at}.{key}"))
                        {
                            return Some(found);
                        }
                    }
                }
                None
            }
            Value::Array(items) => {
                let child = format!("{pattern}[]");
                if !rules.prefixes.contains(child.as_str()) {
                    return None;
                }
                items
                    .iter()
                    .enumerate()
                    .find_map(|(i, item)| self.at(item, &child, format!("{at}[{i}]")))
            }
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::first_missing;
    use serde_json::json;

    #[test]
    fn required_fields_and_least_properties_are_found_where_the_schema_puts_them() {
        let whole = json!({"etcd": {"managementType": "Managed"}, "networking": {}, "platform": {"type": "AWS"}, "pullSecret": {}, "release": {"image": "x"}, "services": []});
        assert_eq!(first_missing(&whole, false), None);
        let mut spec = whole.clone();
        spec["autoNode"] = json!({});
        assert_eq!(
            first_missing(&spec, false),
            Some((
                "spec.autoNode.provisionerConfig".into(),
                "Required value".into()
            ))
        );
        let mut spec = whole.clone();
        spec["monitoring"] = json!({});
        assert_eq!(
            first_missing(&spec, false).map(|f| f.0),
            Some("spec.monitoring".into())
        );
        let mut spec = whole.clone();
        spec["services"] = json!([{"service": "APIServer"}]);
        assert_eq!(
            first_missing(&spec, false).map(|f| f.0),
            Some("spec.services[0].servicePublishingStrategy".into())
        );
        let mut spec = whole.clone();
        spec["platform"]["openstack"] = json!({});
        assert_eq!(first_missing(&spec, false), None);
        assert_eq!(
            first_missing(&spec, true).map(|f| f.0),
            Some("spec.platform.openstack.identityRef".into())
        );
        let mut spec = whole;
        spec.as_object_mut().expect("object").remove("release");
        assert_eq!(
            first_missing(&spec, false).map(|f| f.0),
            Some("spec.release".into())
        );
    }
}
